package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * {@code --plan FILE}, optional: the plan artifact a command checks against or deploys behind,
 * absent {@code plan-<model>.json} beside the config. Option help: {@code flags.properties}, per
 * command.
 */
final class PlanBesideConfigOption {
  @Option(names = Flags.PLAN, paramLabel = "FILE")
  @Nullable Path file;

  /** The file given, else {@code plan-<model>.json} beside {@code common}'s config. */
  Path orBeside(ChainOptions common) {
    return file != null ? file : common.defaultPlan();
  }
}
