package dev.speechscale.platform.aws;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.platform.PlatformException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.profiles.ProfileFile;

/**
 * {@code bin/image push}: puts a locally built speech-server image into ECR and pins the endpoint
 * config to it. ECR's token comes from the SDK ({@link EcrTokenSource}, the same region and
 * credentials as every other command), podman logs in with it (the password on stdin, into a
 * private auth file that is deleted afterwards, so nothing of the token outlives the command),
 * pushes, and reports the digest the registry stored ({@code podman push --digestfile}); the
 * config's {@code models.<model>.aws.image_uri} (or {@code gpu_image_uri}) becomes {@code
 * REGISTRY/REPOSITORY@sha256:...}, the rest of the file untouched ({@link ConfigImageUri}).
 *
 * <p>The registry is the token's {@code proxyEndpoint}; the repository is the one the config's
 * current image field names in that registry, else the foundation stack's {@value
 * FoundationStack#IMAGE_REPOSITORY}. The image is pushed with the local image's tag ({@code
 * latest}, {@code gpu}), which the repository lets move; the config pins the digest, which does
 * not. A {@code http://} proxy endpoint (a loopback test registry) is pushed to without TLS.
 */
public final class ImagePush {
  private ImagePush() {}

  private static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");

  /** {@code host[:port]/repository[:tag][@sha256:...]}. */
  private static final Pattern IMAGE =
      Pattern.compile(
          "([^/]+)/([a-z0-9][a-z0-9._/-]*?)(?::[A-Za-z0-9._-]+)?(?:@sha256:[0-9a-f]{64})?");

  /** podman login and push together: an image of a few GB over a slow uplink. */
  private static final long PUSH_BOUND_MINUTES = 120;

  /**
   * What to push where.
   *
   * @param config the endpoint config file to pin
   * @param model the model whose image field to write; {@code null} when the config has one model
   * @param gpu write {@code gpu_image_uri} (and push the GPU image by default)
   * @param image the local image; {@code null} for {@code bin/image build}'s default tag
   */
  public record Request(Path config, @Nullable String model, boolean gpu, @Nullable String image) {
    public Request {
      Objects.requireNonNull(config, "config");
    }

    /** The local image to push. */
    public String localImage() {
      return image != null
          ? image
          : gpu ? "localhost/speech-server:gpu" : "localhost/speech-server:latest";
    }

    String field() {
      return gpu ? "gpu_image_uri" : "image_uri";
    }
  }

  /**
   * What was pushed.
   *
   * @param digest the manifest digest the registry stored, {@code sha256:...}
   * @param imageUri what the config now says: {@code REGISTRY/REPOSITORY@DIGEST}
   * @param field the config field written, {@code models.<model>.aws.image_uri}
   */
  public record Result(String digest, String imageUri, String field) {}

  /** podman, as the push runs it; tests substitute a fake. */
  @FunctionalInterface
  interface Podman {
    /**
     * Runs {@code podman ARGS} with {@code stdin} (or nothing) on its standard input.
     *
     * @return the exit code and what it printed (stdout and stderr together)
     */
    Outcome run(List<String> args, @Nullable String stdin) throws IOException;

    record Outcome(int exitCode, String output) {}

    Podman PROCESS =
        (args, stdin) -> {
          List<String> cmd = new ArrayList<>(List.of("podman"));
          cmd.addAll(args);
          Path out = Files.createTempFile("podman", ".out");
          try {
            Process p =
                new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            try (var in = p.getOutputStream()) {
              if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
              }
            }
            if (!p.waitFor(PUSH_BOUND_MINUTES, TimeUnit.MINUTES)) {
              p.destroyForcibly().waitFor();
              throw new IOException(
                  "podman "
                      + args.getFirst()
                      + " did not finish within "
                      + PUSH_BOUND_MINUTES
                      + " min");
            }
            return new Outcome(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while podman " + args.getFirst() + " ran", e);
          } finally {
            Files.deleteIfExists(out);
          }
        };
  }

  /**
   * Pushes with the real SDK and podman.
   *
   * @param region the region whose ECR to push to; {@code null}: {@code AWS_REGION}, {@code
   *     AWS_DEFAULT_REGION} or the profile's ({@link AwsAccess#region})
   * @param profile the credentials profile, or {@code null} for the default chain
   * @param endpointUrl where to send ECR's token call instead of AWS ({@code --endpoint-url}), or
   *     {@code null}
   * @param progress where progress goes (stderr)
   */
  public static Result push(
      Request request,
      @Nullable String region,
      @Nullable String profile,
      @Nullable URI endpointUrl,
      PrintStream progress) {
    // the region is resolved when the token is wanted: config and image are checked first
    Supplier<RegistryToken> tokens =
        () -> {
          String resolved =
              AwsAccess.region(region, profile, System.getenv(), ProfileFile::defaultProfileFile);
          if (resolved == null) {
            throw new PlatformException(
                new PlatformException.Reason.InvalidRequest(
                    AwsAccess.noRegion(profile, System.getenv())));
          }
          return new EcrTokenSource(resolved, profile, endpointUrl).get();
        };
    return push(
        request, tokens, AwsAccess.profileName(profile, System.getenv()), Podman.PROCESS, progress);
  }

  /** As {@link #push(Request, String, String, URI, PrintStream)}, from a given token source. */
  static Result push(
      Request request,
      Supplier<RegistryToken> tokens,
      String profileName,
      Podman podman,
      PrintStream progress) {
    Path file = request.config();
    String text = read(file);
    EndpointConfig model = model(EndpointConfigFile.parse(file, text), request.model());
    String field = "models." + model.modelName() + ".aws." + request.field();
    // fail on the config before any call: an edit that cannot be made is known now
    ConfigImageUri.write(file, text, model.modelName(), request.field(), placeholder());
    String local = request.localImage();
    Podman.Outcome exists = run(podman, List.of("image", "exists", local), null);
    if (exists.exitCode() != 0) {
      throw invalid(
          "no local image "
              + local
              + ": build it first with `bin/image build"
              + (request.gpu() ? " --gpu" : "")
              + "`"
              + (request.image() == null ? "" : ", or name a built image with --image")
              + " (`podman images` lists what is built)");
    }
    RegistryToken token = tokens.get();
    String repository = repository(model, request.gpu(), token);
    String remote = token.registry() + "/" + repository + ":" + tag(local);
    progress.println(
        "image: pushing "
            + local
            + " to "
            + remote
            + " (ECR token for profile '"
            + profileName
            + "')");
    Path dir = privateDir();
    try {
      Path auth = dir.resolve("auth.json");
      Path digestFile = dir.resolve("digest");
      List<String> tls = token.tls() ? List.of() : List.of("--tls-verify=false");
      List<String> login = new ArrayList<>(List.of("login", "--authfile", auth.toString()));
      login.addAll(tls);
      login.addAll(List.of("--username", token.user(), "--password-stdin", token.registry()));
      Podman.Outcome in = run(podman, login, token.password());
      if (in.exitCode() != 0) {
        throw new PlatformException(
            new PlatformException.Reason.MissingCredentials(
                "the registry "
                    + token.registry()
                    + " refused the ECR token of profile '"
                    + profileName
                    + "' (podman login: "
                    + in.output().strip()
                    + "); if the profile's session expired run `aws sso login --profile "
                    + profileName
                    + "`, and check that its identity may push to "
                    + repository));
      }
      List<String> push =
          new ArrayList<>(
              List.of(
                  "push", "--authfile", auth.toString(), "--digestfile", digestFile.toString()));
      push.addAll(tls);
      push.addAll(List.of(local, remote));
      Podman.Outcome out = run(podman, push, null);
      if (out.exitCode() != 0) {
        throw new PlatformException(
            new PlatformException.Reason.InvalidRequest(
                "podman push "
                    + local
                    + " "
                    + remote
                    + " failed (exit "
                    + out.exitCode()
                    + "): "
                    + out.output().strip()
                    + "; if the repository does not exist, deploy the foundation stack that"
                    + " creates it (`npx --yes aws-cdk@2 deploy --app cdk.out "
                    + AwsNames.FOUNDATION_STACK
                    + "` after `speech-infra synth --platform aws`, docs/sagemaker.md) and push"
                    + " again"));
      }
      String digest = Files.isRegularFile(digestFile) ? Files.readString(digestFile).strip() : "";
      if (!DIGEST.matcher(digest).matches()) {
        throw new PlatformException(
            new PlatformException.Reason.Unavailable(
                "podman push reported no manifest digest ('"
                    + digest
                    + "'); run `podman push --digestfile FILE` by hand to see why"));
      }
      String imageUri = token.registry() + "/" + repository + "@" + digest;
      // read again: the file may have been edited while the image was uploading
      writeAtomically(
          file,
          ConfigImageUri.write(file, read(file), model.modelName(), request.field(), imageUri));
      progress.println("image: wrote " + field + ": " + imageUri + " into " + file);
      return new Result(digest, imageUri, field);
    } catch (IOException e) {
      throw new UncheckedIOException("image push: " + e.getMessage(), e);
    } finally {
      deleteTree(dir);
    }
  }

  /** A well-formed value for the dry edit before the push. */
  private static String placeholder() {
    return "000000000000.dkr.ecr.us-east-1.amazonaws.com/"
        + FoundationStack.IMAGE_REPOSITORY
        + "@sha256:"
        + "0".repeat(64);
  }

  private static EndpointConfig model(EndpointConfigFile config, @Nullable String model) {
    if (model != null) {
      return config.model(model);
    }
    if (config.models().size() != 1) {
      throw invalid(
          config.file()
              + " has "
              + config.models().size()
              + " models ("
              + String.join(", ", new java.util.TreeSet<>(config.models().keySet()))
              + "): name the one whose image to pin with --model NAME");
    }
    return config.models().values().iterator().next();
  }

  /**
   * The repository the config's current image names in the token's registry, else the foundation
   * stack's.
   */
  static String repository(EndpointConfig model, boolean gpu, RegistryToken token) {
    String current =
        model.aws() == null ? null : gpu ? model.aws().gpuImageUri() : model.aws().imageUri();
    Matcher m = current == null ? null : IMAGE.matcher(current);
    return m != null && m.matches() && m.group(1).equals(token.registry())
        ? m.group(2)
        : FoundationStack.IMAGE_REPOSITORY;
  }

  /** The local image's tag, {@code latest} when it names none. */
  static String tag(String image) {
    int slash = image.lastIndexOf('/');
    int colon = image.lastIndexOf(':');
    int at = image.indexOf('@');
    return colon > slash && (at < 0 || colon < at)
        ? image.substring(colon + 1, at < 0 ? image.length() : at)
        : "latest";
  }

  private static Podman.Outcome run(Podman podman, List<String> args, @Nullable String stdin) {
    try {
      return podman.run(args, stdin);
    } catch (IOException e) {
      throw invalid(
          "podman "
              + args.getFirst()
              + " could not run ("
              + e.getMessage()
              + "); install podman (sudo apt-get install -y podman runc) and push again");
    }
  }

  private static PlatformException invalid(String message) {
    return new PlatformException(new PlatformException.Reason.InvalidRequest(message));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw invalid(
          "cannot read the endpoint config "
              + file
              + " ("
              + e.getMessage()
              + "); pass the file to pin with --config FILE");
    }
  }

  private static void writeAtomically(Path file, String text) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
    try {
      Files.writeString(tmp, text);
      // a temporary file is 0600: the config keeps the permissions it had
      Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(file));
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private static Path privateDir() {
    try {
      return Files.createTempDirectory(
          "speechscale-push",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a private directory for podman's login", e);
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      System.err.println("image: could not delete " + dir + " (" + e.getMessage() + ")");
    }
  }
}
