package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --plan FILE}: the plan artifact a simulation or a replay runs (required). Option help:
 * {@code flags.properties}.
 */
final class PlanFileOption {
  @Option(names = Flags.PLAN, required = true, paramLabel = "FILE")
  Path file;
}
