package dev.speechscale.cli;

import dev.speechscale.platform.Infra;
import dev.speechscale.platform.PlatformProvider;
import dev.speechscale.platform.PlatformSettings;
import dev.speechscale.platform.Platforms;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** Options every {@code speech-infra} command shares. */
final class InfraOptions {
  @Option(
      names = "--model",
      required = true,
      paramLabel = "NAME",
      description = "model name in the config; the endpoint is speech-<NAME>")
  String model;

  @Option(
      names = "--platform",
      defaultValue = ChainOptions.DEFAULT_PLATFORM,
      paramLabel = "local|aws",
      description = "where the endpoint runs (default ${DEFAULT-VALUE})")
  String platform;

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      description = "local control state (default $SPEECHSCALE_STATE_DIR or ~/.speechscale/local)")
  Path stateDir;

  @Option(
      names = "--region",
      paramLabel = "REGION",
      description = "aws: the region (default $AWS_REGION; CDK context region)")
  String region;

  @Option(names = "--account", paramLabel = "ID", description = "aws: the account (CDK context)")
  String account;

  @Option(names = "--profile", paramLabel = "NAME", description = "aws: a credentials profile")
  String profile;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "cdk.out",
      description = "aws: the cloud assembly directory (default ${DEFAULT-VALUE})")
  Path out;

  /**
   * The chosen platform's deployment side, printing to the command's streams.
   *
   * @throws picocli.CommandLine.ParameterException (exit 2) when no such platform is on the
   *     classpath
   */
  Infra infra(CommandSpec spec) {
    PlatformProvider provider =
        Platforms.find(platform)
            .orElseThrow(() ->
                Cli.usage(spec, "--platform (" + platform + ") must be " + ChainOptions.choices()));
    return provider.infra(
        new PlatformSettings(stateDir, region, account, profile, null, out),
        model,
        stream(spec.commandLine().getOut()),
        stream(spec.commandLine().getErr()));
  }

  private static PrintStream stream(PrintWriter w) {
    return new PrintStream(new WriterOutputStream(w), true, StandardCharsets.UTF_8);
  }
}
