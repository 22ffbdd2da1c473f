package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.platform.Infra;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code speech-infra synth --platform aws}: write the cloud assembly offline. Option help: {@code
 * flags.properties}.
 */
@Command(
    name = "synth",
    mixinStandardHelpOptions = true,
    description = {
      "Write the AWS CDK cloud assembly (CloudFormation templates) for speech-<model> into --out,"
          + " with no AWS access. Scaling and observability resources appear only behind a"
          + " matching plan; the output says why or why not."
    })
final class InfraSynth implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin InfraOptions common;

  @Option(names = Flags.CONFIG, required = true, paramLabel = "FILE")
  Path config;

  @Mixin PlanBesideConfigOption plan;

  @Override
  public Integer call() {
    Infra infra = common.infra(spec);
    if (!infra.synthesizes()) {
      throw Cli.usage(
          spec,
          "synth is for --platform aws (the "
              + common.where.platform
              + " platform has nothing to"
              + " synthesize; use speech-infra deploy)");
    }
    return synth(infra);
  }

  private int synth(Infra infra) {
    return infra.synth(config, plan.file);
  }
}
