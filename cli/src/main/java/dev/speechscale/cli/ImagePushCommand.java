package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.platform.aws.ImagePush;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/image push}: the built image into ECR, its digest into the endpoint config ({@link
 * ImagePush}). Prints the digest alone on stdout, so {@code DIGEST=$(bin/image push ...)} works;
 * progress and what was written go to stderr. Option help: {@code flags.properties}.
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

  @Mixin ConfigOption config;

  @Option(names = Flags.MODEL, paramLabel = "NAME")
  @Nullable String model;

  @Option(names = Flags.GPU)
  boolean gpu;

  @Option(names = Flags.IMAGE, paramLabel = "NAME")
  @Nullable String image;

  @Mixin AwsAccessOptions aws;

  @Mixin EndpointUrlOption endpointUrl;

  @Override
  public Integer call() {
    PrintStream progress = WriterOutputStream.printStream(spec.commandLine().getErr());
    ImagePush.Result r =
        ImagePush.push(
            new ImagePush.Request(config.file, model, gpu, image),
            aws.region,
            aws.profile,
            endpointUrl.uri,
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
