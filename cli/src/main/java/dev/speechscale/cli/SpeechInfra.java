package dev.speechscale.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code speech-infra}: deploy one endpoint definition locally or on SageMaker. */
@Command(
    name = "speech-infra",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Deploy a speech endpoint from an endpoint config file, on this machine (local) or on AWS"
          + " SageMaker.",
      "Scaling is attached only behind a measured plan (tts-bench plan) that matches the config."
    },
    subcommands = {InfraSynth.class, InfraDeploy.class, InfraStatus.class, InfraDestroy.class})
public final class SpeechInfra extends ToolRoot {
  /** Runs the command line with injected output streams; returns the exit code (0, 1 or 2). */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return Cli.run(new SpeechInfra(), args, out, err);
  }

  public static void main(String[] args) {
    Cli.main(new SpeechInfra(), args);
  }
}
