package dev.speechscale.cli;

import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.chain.Flags;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --config FILE}: the endpoint config (default {@code endpoints.yaml}). Option help: {@code
 * flags.properties}.
 */
final class ConfigOption {
  @Option(names = Flags.CONFIG, paramLabel = "FILE", defaultValue = "endpoints.yaml")
  Path file;

  /**
   * The endpoint config, read.
   *
   * @param hint how the error goes on after {@code no endpoint config at FILE; } when there is none
   * @throws CliException (exit 1) when the file does not exist
   */
  EndpointConfigFile read(String hint) {
    if (!Files.exists(file)) {
      throw new CliException("no endpoint config at " + file + "; " + hint);
    }
    return EndpointConfigFile.read(file);
  }
}
