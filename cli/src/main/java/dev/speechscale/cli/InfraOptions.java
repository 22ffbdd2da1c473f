package dev.speechscale.cli;

import java.nio.file.Path;
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
      defaultValue = "local",
      paramLabel = "local|aws",
      description = "where the endpoint runs (default ${DEFAULT-VALUE})")
  String platform;

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      description = "local control state (default $SPEECHSCALE_STATE_DIR or ~/.speechscale/local)")
  Path stateDir;

  String endpoint() {
    return "speech-" + model;
  }

  Path root() {
    return stateDir != null ? stateDir : dev.speechscale.platform.local.LocalPlatform.defaultRoot();
  }
}
