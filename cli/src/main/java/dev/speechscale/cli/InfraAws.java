package dev.speechscale.cli;

import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.aws.AwsDeployer;
import dev.speechscale.platform.aws.AwsPlatform;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;

/** The {@code --platform aws} side of {@code speech-infra deploy|destroy|status}. */
final class InfraAws {
  private InfraAws() {}

  static int deploy(CommandSpec spec, InfraOptions common, Path config, Path plan) {
    PrintStream out = stream(spec.commandLine().getOut());
    AwsDeployer deployer = AwsDeployer.system(out);
    AwsDeployer.Synthesis s =
        deployer.synth(
            config, common.model, planPath(config, plan, common), common.context(), common.out);
    deployer.deploy(s);
    out.flush();
    return 0;
  }

  static int destroy(CommandSpec spec, InfraOptions common, Path config, boolean foundation) {
    PrintStream out = stream(spec.commandLine().getOut());
    AwsDeployer deployer = AwsDeployer.system(out);
    AwsDeployer.Synthesis s =
        deployer.synth(
            config, common.model, planPath(config, null, common), common.context(), common.out);
    deployer.destroy(s, foundation);
    out.flush();
    return 0;
  }

  static int status(CommandSpec spec, InfraOptions common) {
    PrintWriter out = spec.commandLine().getOut();
    try (AwsPlatform p =
        AwsPlatform.create(
            new AwsPlatform.Settings(common.context().get("region"), common.profile, null, null))) {
      EndpointDescription d = p.describe(common.endpoint());
      out.printf(
          "%s  %s  desired %d, in service %d  (%s)%n",
          d.name(), d.status(), d.desiredInstances(), d.currentInstances(), d.instanceType());
      ScalingState s = p.scalingState(common.endpoint());
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

  private static Path planPath(Path config, Path plan, InfraOptions common) {
    return plan != null
        ? plan
        : config.toAbsolutePath().getParent().resolve("plan-" + common.model + ".json");
  }

  private static PrintStream stream(PrintWriter w) {
    return new PrintStream(new WriterOutputStream(w), true, StandardCharsets.UTF_8);
  }
}
