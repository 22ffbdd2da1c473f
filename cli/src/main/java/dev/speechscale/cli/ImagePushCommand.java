package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.platform.aws.ImagePush;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/image push}: the built image into ECR, its digest into the endpoint config ({@link
 * ImagePush}). Prints the digest alone on stdout, so {@code DIGEST=$(bin/image push ...)} works;
 * progress and what was written go to stderr.
 */
@Command(
    name = "image push",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Push the image bin/image build made to ECR (a token from the SDK, podman login and push),"
          + " print its digest and write REGISTRY/REPOSITORY@DIGEST into the config's"
          + " models.<model>.aws.image_uri (gpu_image_uri with --gpu), leaving the rest of the file"
          + " as it was.",
      "The repository is the one the config's image already names in that registry, else the"
          + " foundation stack's speech-server."
    })
public final class ImagePushCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = Flags.CONFIG,
      paramLabel = "FILE",
      defaultValue = "endpoints.yaml",
      description = "endpoint config to pin (default ${DEFAULT-VALUE})")
  Path config;

  @Option(
      names = Flags.MODEL,
      paramLabel = "NAME",
      description = "the model whose image to pin (needed when the config has several)")
  @Nullable String model;

  @Option(
      names = Flags.GPU,
      description =
          "push the GPU image (bin/image build --gpu, localhost/speech-server:gpu) and pin it in"
              + " gpu_image_uri")
  boolean gpu;

  @Option(
      names = Flags.IMAGE,
      paramLabel = "NAME",
      description =
          "the local image to push (default localhost/speech-server:latest, :gpu with --gpu)")
  @Nullable String image;

  @Option(
      names = Flags.REGION,
      paramLabel = "REGION",
      description = "the region (default $AWS_REGION, $AWS_DEFAULT_REGION, the profile's region)")
  @Nullable String region;

  @Option(names = Flags.PROFILE, paramLabel = "NAME", description = "a credentials profile")
  @Nullable String profile;

  @Option(
      names = Flags.ENDPOINT_URL,
      paramLabel = "URL",
      description =
          "send ECR's GetAuthorizationToken here instead of AWS (the local platform's AWS-shaped"
              + " control plane)")
  @Nullable URI endpointUrl;

  @Override
  public Integer call() {
    PrintStream progress = WriterOutputStream.printStream(spec.commandLine().getErr());
    ImagePush.Result r =
        ImagePush.push(
            new ImagePush.Request(config, model, gpu, image),
            region,
            profile,
            endpointUrl,
            progress);
    progress.flush();
    spec.commandLine().getOut().println(r.digest());
    return 0;
  }

  /** Runs the command line with injected output streams; returns the exit code (0, 1 or 2). */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return Cli.run(new ImagePushCommand(), args, out, err);
  }

  public static void main(String[] args) {
    Cli.main(new ImagePushCommand(), args);
  }
}
