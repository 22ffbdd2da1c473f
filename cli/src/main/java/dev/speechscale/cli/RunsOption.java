package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import picocli.CommandLine.Option;

/**
 * {@code --runs N}: how many times a measurement is repeated (default 1). Option help: {@code
 * flags.properties}, per command.
 */
final class RunsOption {
  @Option(names = Flags.RUNS, defaultValue = "1", paramLabel = "<runs>")
  int value;
}
