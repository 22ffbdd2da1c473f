package dev.speechscale.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code speech-infra status}: instances, stages, counts, policies, alarms, suspended flags. Option
 * help: {@code flags.properties}.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "Show speech-<model>: instances and their stages, desired/current counts, policies, alarms"
          + " and suspended flags, or why no scaling is attached.",
      "A supervisor that was killed is reported (exit 1) and its orphaned instances are stopped."
    })
final class InfraStatus implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin InfraOptions common;

  @Mixin JsonOption json;

  @Override
  public Integer call() {
    return common.infra(spec).status(json.asked);
  }
}
