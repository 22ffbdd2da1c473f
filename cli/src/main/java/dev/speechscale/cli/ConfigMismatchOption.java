package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import picocli.CommandLine.Option;

/**
 * {@code --allow-config-mismatch}: pair artifacts measured on different deployments, warning
 * instead of refusing. Option help: {@code flags.properties}, per command.
 */
final class ConfigMismatchOption {
  @Option(names = Flags.ALLOW_CONFIG_MISMATCH)
  boolean allowed;
}
