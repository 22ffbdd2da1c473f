package dev.speechscale.platform.aws;

import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.Infra;
import dev.speechscale.platform.PlatformSettings;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code speech-infra deploy|destroy|status|synth} on AWS: CDK stacks and the SDK.
 *
 * @param settings region, account, profile and the cloud assembly directory
 * @param model the model; the endpoint is {@code speech-<model>}
 * @param out where results (and the CDK's own output) go
 */
record AwsInfra(PlatformSettings settings, String model, PrintStream out) implements Infra {

  @Override
  public int deploy(Path config, @Nullable Path plan) {
    AwsDeployer deployer = AwsDeployer.system(out);
    deployer.deploy(synthesize(deployer, config, plan));
    out.flush();
    return 0;
  }

  @Override
  public int destroy(Path config, boolean includeFoundation) {
    AwsDeployer deployer = AwsDeployer.system(out);
    deployer.destroy(synthesize(deployer, config, null), includeFoundation);
    out.flush();
    return 0;
  }

  @Override
  public boolean synthesizes() {
    return true;
  }

  @Override
  public int synth(Path config, @Nullable Path plan) {
    AwsDeployer.Synthesis s = synthesize(AwsDeployer.system(out), config, plan);
    out.print(s.describeSynth());
    out.flush();
    return 0;
  }

  @Override
  public int status(boolean json) {
    String endpoint = "speech-" + model;
    try (AwsPlatform p =
        AwsPlatform.create(
            AwsPlatform.Settings.of(context().get("region"), settings.profile(), null),
            settings.endpointUrl())) {
      EndpointDescription d = p.describe(endpoint);
      if (json) {
        out.println(
            AwsStatusJson.JSON.writeValueAsString(AwsStatusJson.of(d, p.scalingState(endpoint))));
        out.flush();
        return 0;
      }
      out.printf(
          "%s  %s  desired %d, in service %d  (%s)%n",
          d.name(), d.status(), d.desiredInstances(), d.currentInstances(), d.instanceType());
      ScalingState s = p.scalingState(endpoint);
      if (s.target().isEmpty()) {
        out.println("scaling: none attached" + (s.reason() == null ? "" : ": " + s.reason()));
      } else {
        ScalingState.ScalableTarget t = s.target().get();
        out.printf(
            "scaling: %s min %d max %d, suspended %s%n",
            t.resourceId(), t.minCapacity(), t.maxCapacity(), t.suspended());
        for (ScalingPolicy policy : s.policies()) {
          out.println("  policy " + policy);
        }
        s.alarms()
            .forEach(a ->
                out.printf(
                    "  alarm %s %s %s/%ds x%d threshold %.3f [%s]%n",
                    a.name(),
                    a.metricName(),
                    a.statistic(),
                    a.periodSeconds(),
                    a.evaluationPeriods(),
                    a.threshold(),
                    a.state()));
      }
    }
    return 0;
  }

  private AwsDeployer.Synthesis synthesize(AwsDeployer deployer, Path config, @Nullable Path plan) {
    Path planFile =
        plan != null ? plan : AwsDeployer.workDir(config).resolve("plan-" + model + ".json");
    return deployer.synth(config, model, planFile, context(), cloudAssemblyDir());
  }

  private Path cloudAssemblyDir() {
    return settings.cloudAssemblyDir() != null ? settings.cloudAssemblyDir() : Path.of("cdk.out");
  }

  /** CDK context: account and region when given (the region defaults to $AWS_REGION). */
  private Map<String, String> context() {
    Map<String, String> c = new LinkedHashMap<>();
    String r = AwsPlatformProvider.region(settings);
    if (settings.account() != null) {
      c.put("account", settings.account());
    }
    if (r != null) {
      c.put("region", r);
    }
    return c;
  }
}
