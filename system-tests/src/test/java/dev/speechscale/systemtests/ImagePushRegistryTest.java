package dev.speechscale.systemtests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.speechscale.cli.ImagePushCommand;
import dev.speechscale.platform.local.AwsControlPlane;
import dev.speechscale.platform.local.LocalPlatform;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/image push} end to end on this machine: a real registry (Debian's {@code
 * docker-registry}, htpasswd auth, plain HTTP on 127.0.0.1), the local AWS-shaped control plane
 * answering ECR's {@code GetAuthorizationToken} through the real SDK with that registry's address
 * and credentials, and real podman logging in with the token and pushing a one-file image made by
 * {@code podman import}. The digest the command prints must be the one the registry serves the
 * manifest under, and the config's {@code image_uri} must name it; the rest of the config stays as
 * written. Registry, plane and image are removed afterwards. Skipped, with the reason printed, only
 * where podman or docker-registry cannot be had.
 */
class ImagePushRegistryTest {
  private static final String USER = "AWS";
  private static final Duration BOUND = Duration.ofSeconds(60);

  @TempDir Path dir;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void push_toALocalRegistryWithTheControlPlanesToken_printsTheRegistrysDigestAndPinsIt()
      throws Exception {
    Optional<String> why = unavailableReason();
    why.ifPresent(w -> System.out.println("ImagePushRegistryTest skipped: " + w));
    assumeTrue(why.isEmpty(), () -> why.orElseThrow());

    String password = UUID.randomUUID().toString();
    int port = freePort();
    Process registry = startRegistry(port, password);
    String image =
        "localhost/speechscale-push-test:" + UUID.randomUUID().toString().substring(0, 8);
    try (LocalPlatform backend = new LocalPlatform(dir.resolve("state"));
        AwsControlPlane plane =
            AwsControlPlane.start(
                backend,
                List::of,
                "us-east-1",
                0,
                new AwsControlPlane.EcrRegistry(
                    URI.create("http://127.0.0.1:" + port), USER, password))) {
      importImage(image);
      awaitRegistry(port, password);
      Path config = dir.resolve("endpoints.yaml");
      String original =
          """
          # pinned by bin/image push
          models:
            flite:
              engine: flite
              instance_type: ml.c5.xlarge
              aws:
                image_uri: not-pushed-yet   # any value: push replaces it
                model_repository: example/none
                model_revision: 0123456789abcdef0123456789abcdef01234567
                quota_max_instances: 2
          """;
      Files.writeString(config, original);
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();

      int code =
          ImagePushCommand.run(
              new String[] {
                "--config",
                config.toString(),
                "--image",
                image,
                "--region",
                "us-east-1",
                "--endpoint-url",
                plane.uri().toString()
              },
              new PrintWriter(out, true),
              new PrintWriter(err, true));

      assertThat(code).as("stderr:\n%s", err).isZero();
      String digest = out.toString().strip();
      assertThat(digest).matches("sha256:[0-9a-f]{64}");
      assertThat(
              manifestDigest(
                  port, password, "speech-server", image.substring(image.indexOf(':') + 1)))
          .as("the digest the registry serves the pushed tag's manifest under")
          .isEqualTo(digest);
      assertThat(manifestDigest(port, password, "speech-server", digest))
          .as("the manifest by its digest")
          .isEqualTo(digest);
      String pinned = "127.0.0.1:" + port + "/speech-server@" + digest;
      assertThat(Files.readString(config))
          .isEqualTo(
              original.replace(
                  "image_uri: not-pushed-yet   # any value",
                  "image_uri: " + pinned + "  # any value"));
      assertThat(plane.calls()).containsEntry("ECR.GetAuthorizationToken", 1L);
      assertThat(err.toString()).doesNotContain(password);
    } finally {
      registry.destroy();
      if (!registry.waitFor(10, TimeUnit.SECONDS)) {
        registry.destroyForcibly().waitFor();
      }
      Podman.podman(BOUND, "rmi", "--ignore", image);
    }
  }

  @Test
  void push_tokenRefusedByEcr_namesTheProfileAndTheFixAndLeavesTheConfig() throws Exception {
    Optional<String> why = unavailableReason();
    assumeTrue(why.isEmpty(), () -> why.orElseThrow());
    String image =
        "localhost/speechscale-push-test:" + UUID.randomUUID().toString().substring(0, 8);
    // the plane answers as us-east-1: a token asked for in eu-west-1 is refused on its SigV4 scope
    try (LocalPlatform backend = new LocalPlatform(dir.resolve("state"));
        AwsControlPlane plane = AwsControlPlane.start(backend, List::of, "us-east-1", 0, null)) {
      importImage(image);
      Path config = dir.resolve("endpoints.yaml");
      String original = "models:\n  flite:\n    aws:\n      image_uri: x\n";
      Files.writeString(config, original);
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();

      int code =
          ImagePushCommand.run(
              new String[] {
                "--config",
                config.toString(),
                "--image",
                image,
                "--region",
                "eu-west-1",
                "--endpoint-url",
                plane.uri().toString()
              },
              new PrintWriter(out, true),
              new PrintWriter(err, true));

      assertThat(code).isEqualTo(1);
      assertThat(out.toString()).isEmpty();
      assertThat(err.toString())
          .contains("ECR refused GetAuthorizationToken for profile '")
          .contains("in eu-west-1 (InvalidSignatureException")
          .contains("run `aws sso login --profile ");
      assertThat(Files.readString(config)).isEqualTo(original);
    } finally {
      Podman.podman(BOUND, "rmi", "--ignore", image);
    }
  }

  private static Optional<String> unavailableReason() {
    if (!Podman.onPath("podman")) {
      return Optional.of("podman is not installed (bin/test installs it: podman runc)");
    }
    if (!Podman.onPath("docker-registry") || !Podman.onPath("htpasswd")) {
      return Optional.of(
          "no local registry: docker-registry or htpasswd is not installed (bin/test installs"
              + " them: sudo apt-get install -y docker-registry apache2-utils)");
    }
    return Optional.empty();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** docker-registry on 127.0.0.1:port, storage and htpasswd (bcrypt) in the test's directory. */
  private Process startRegistry(int port, String password) throws Exception {
    Path htpasswd = dir.resolve("htpasswd");
    Podman.Result made =
        Podman.run(List.of("htpasswd", "-Bbc", htpasswd.toString(), USER, password), dir, BOUND);
    assertThat(made.exitCode()).as("htpasswd:\n%s", made.out()).isZero();
    Path config = dir.resolve("registry.yml");
    Files.writeString(
        config,
        """
        version: 0.1
        log:
          level: error
        storage:
          filesystem:
            rootdirectory: %s
        http:
          addr: 127.0.0.1:%d
          secret: %s
        auth:
          htpasswd:
            realm: speechscale-test
            path: %s
        """
            .formatted(dir.resolve("registry"), port, UUID.randomUUID(), htpasswd));
    return new ProcessBuilder("docker-registry", "serve", config.toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("registry.log").toFile())
        .start();
  }

  /** Waits (bounded) for the registry to answer an authenticated /v2/. */
  private void awaitRegistry(int port, String password) throws Exception {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (true) {
      try {
        HttpResponse<Void> r =
            http.send(
                request(URI.create("http://127.0.0.1:" + port + "/v2/"), password).build(),
                HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "docker-registry did not answer within "
                + BOUND
                + ":\n"
                + Files.readString(dir.resolve("registry.log")));
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  /** A one-file image: no base image and no build, so the push is the test's whole cost. */
  private void importImage(String image) throws Exception {
    Path root = Files.createDirectories(dir.resolve("rootfs"));
    Files.writeString(root.resolve("hello.txt"), "pushed by ImagePushRegistryTest\n");
    Path tar = dir.resolve("rootfs.tar");
    Podman.Result packed =
        Podman.run(List.of("tar", "-C", root.toString(), "-cf", tar.toString(), "."), dir, BOUND);
    assertThat(packed.exitCode()).as("tar:\n%s", packed.out()).isZero();
    Podman.Result imported = Podman.podman(BOUND, "import", tar.toString(), image);
    assertThat(imported.exitCode()).as("podman import:\n%s", imported.out()).isZero();
  }

  /**
   * The registry's Docker-Content-Digest for a manifest by tag or digest (HEAD, as the API says).
   */
  private String manifestDigest(int port, String password, String repository, String reference)
      throws Exception {
    HttpResponse<Void> r =
        http.send(
            request(
                    URI.create(
                        "http://127.0.0.1:"
                            + port
                            + "/v2/"
                            + repository
                            + "/manifests/"
                            + reference),
                    password)
                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                .header(
                    "Accept",
                    "application/vnd.oci.image.manifest.v1+json,"
                        + " application/vnd.docker.distribution.manifest.v2+json")
                .build(),
            HttpResponse.BodyHandlers.discarding());
    assertThat(r.statusCode()).as("HEAD manifest %s", reference).isEqualTo(200);
    return r.headers().firstValue("Docker-Content-Digest").orElse("");
  }

  private static HttpRequest.Builder request(URI uri, String password) {
    return HttpRequest.newBuilder(uri)
        .timeout(Duration.ofSeconds(10))
        .header(
            "Authorization",
            "Basic "
                + Base64.getEncoder()
                    .encodeToString((USER + ":" + password).getBytes(StandardCharsets.UTF_8)));
  }
}
