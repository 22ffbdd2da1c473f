package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --config FILE}: the endpoint config (default {@code endpoints.yaml}). Option help: {@code
 * flags.properties}.
 */
final class ConfigOption {
  @Option(names = Flags.CONFIG, paramLabel = "FILE", defaultValue = "endpoints.yaml")
  Path file;
}
