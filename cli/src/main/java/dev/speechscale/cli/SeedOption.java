package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import picocli.CommandLine.Option;

/**
 * {@code --seed N}: the seed a simulation draws with (default 1). Option help: {@code
 * flags.properties}, per command.
 */
final class SeedOption {
  @Option(names = Flags.SEED, defaultValue = "1", paramLabel = "N")
  long value;
}
