package dev.speechscale.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code speech-infra deploy}: validate, decide scaling, start, return when InService. Option help:
 * {@code flags.properties}.
 */
@Command(
    name = "deploy",
    mixinStandardHelpOptions = true,
    description = {
      "Deploy (or replace) speech-<model> and return when it is InService.",
      "Scaling is attached only behind a plan artifact whose fingerprint matches the deployment,"
          + " whose verdict is not INFEASIBLE and which carries a measured units conversion;"
          + " otherwise the endpoint runs at min_instances with no policies."
    })
final class InfraDeploy implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin InfraOptions common;

  @Mixin ConfigOption config;

  @Mixin PlanBesideConfigOption plan;

  @Override
  public Integer call() {
    return common.infra(spec).deploy(config.file, plan.file);
  }
}
