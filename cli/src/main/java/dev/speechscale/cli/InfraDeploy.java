package dev.speechscale.cli;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.platform.local.LocalDeployer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code speech-infra deploy}: validate, decide scaling, start, return when InService. */
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

  @Option(
      names = "--config",
      required = true,
      paramLabel = "FILE",
      description = "endpoint config (YAML, see config/README.md)")
  Path config;

  @Option(
      names = "--plan",
      paramLabel = "FILE",
      description = "plan artifact gating scaling (default plan-<model>.json beside the config)")
  Path plan;

  @Override
  public Integer call() {
    InfraCommands.requirePlatform(spec, common);
    if (common.aws()) {
      return InfraAws.deploy(spec, common, config, plan);
    }
    EndpointConfig model = EndpointConfigFile.read(config).model(common.model);
    PrintWriter err = spec.commandLine().getErr();
    LocalDeployer deployer = new LocalDeployer(common.root(), line -> err.println(line));
    err.println(
        "deploying "
            + model.endpointName()
            + " ("
            + model.engine()
            + ", "
            + model.instanceType()
            + ", "
            + model.minInstances()
            + ".."
            + model.maxInstances()
            + " instances) on the local platform");
    LocalDeployer.Deployed d = deployer.deploy(model, config, plan);
    PrintWriter out = spec.commandLine().getOut();
    out.printf(
        Locale.ROOT,
        "%s is InService with %d instance%s (%.1f s)%n",
        d.endpoint(),
        d.instances(),
        d.instances() == 1 ? "" : "s",
        d.took().toMillis() / 1000.0);
    out.printf(
        Locale.ROOT, "  container API   %s/invocations  (POST, streaming WAV)%n", d.routerUrl());
    out.printf(
        Locale.ROOT,
        "  runtime API     %s  (SageMaker Runtime endpoint override)%n",
        d.runtimeUrl());
    out.printf(
        Locale.ROOT,
        "  WebSocket       %s%s%n",
        d.routerUrl().replace("http", "ws"),
        "/invocations-bidirectional-stream");
    out.printf(
        Locale.ROOT,
        "  scaling         %s%n",
        (d.scalingAttached() ? "attached: " : "off: ") + d.scalingReason());
    out.printf(Locale.ROOT, "  state           %s%n", d.stateDir());
    out.printf(
        Locale.ROOT,
        "next: speech-infra status --model %s%s%n",
        common.model,
        common.stateDir == null ? "" : " --state-dir " + common.stateDir);
    return 0;
  }
}
