package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code speech-infra destroy}: stop everything of speech-model; idempotent. Option help: {@code
 * flags.properties}.
 */
@Command(
    name = "destroy",
    mixinStandardHelpOptions = true,
    description =
        "Stop speech-<model> (drain, stop every instance and the supervisor) and remove"
            + " its local state. Leaves no process behind; does nothing if nothing is deployed.")
final class InfraDestroy implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin InfraOptions common;

  @Mixin ConfigOption config;

  @Option(names = Flags.INCLUDE_FOUNDATION)
  boolean foundation;

  @Override
  public Integer call() {
    return common.infra(spec).destroy(config.file, foundation);
  }
}
