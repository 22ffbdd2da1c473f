package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code speech-infra destroy}: stop everything of speech-model; idempotent. */
@Command(
    name = "destroy",
    mixinStandardHelpOptions = true,
    description =
        "Stop speech-<model> (drain, stop every instance and the supervisor) and remove"
            + " its local state. Leaves no process behind; does nothing if nothing is deployed.")
final class InfraDestroy implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin InfraOptions common;

  @picocli.CommandLine.Option(
      names = Flags.CONFIG,
      paramLabel = "FILE",
      defaultValue = "endpoints.yaml",
      description =
          "aws: the endpoint config the stacks were deployed from (default" + " ${DEFAULT-VALUE})")
  java.nio.file.Path config;

  @picocli.CommandLine.Option(
      names = Flags.INCLUDE_FOUNDATION,
      description = "aws: also delete the shared foundation stack (its bucket is retained)")
  boolean foundation;

  @Override
  public Integer call() {
    return common.infra(spec).destroy(config, foundation);
  }
}
