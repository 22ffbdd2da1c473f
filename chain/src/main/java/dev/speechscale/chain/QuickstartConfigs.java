package dev.speechscale.chain;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.PlanArtifact;
import java.util.Locale;

/**
 * The two endpoint configs {@code quickstart} writes: the measurement deployment (no scaling, no
 * queue bound) and the deployment behind the plan (the plan's config block), each with the {@code
 * local.aws_physics} block when the run asks for SageMaker's physics.
 */
final class QuickstartConfigs {
  private QuickstartConfigs() {}

  /** {@code endpoints.yaml}: flite on one {@code local.500mcpu} instance, nothing planned yet. */
  static String measurement(QuickstartRun.Options o) {
    return "# written by tts-bench quickstart: the measurement deployment (no scaling, no queue"
        + " bound)\nmodels:\n  "
        + o.model()
        + ":\n    engine: flite\n    engine_settings:"
        + " {segmentation: sentence}\n    instance_type: local.500mcpu\n    min_instances: 1\n"
        + "    max_instances: 2\n    ttfab_slo_ms: "
        + o.slo().toMillis()
        + "\n    queue_max_depth:"
        + " 0\n"
        + physicsBlock(o);
  }

  /** {@code endpoints-planned.yaml}: the same engine, with the plan's values. */
  static String planned(QuickstartRun.Options o, PlanArtifact p) {
    return "# written by tts-bench quickstart from "
        + p.defaultFileName()
        + "\nmodels:\n  "
        + o.model()
        + ":\n    engine: flite\n    engine_settings: {segmentation: sentence}\n"
        + p.configBlock().lines().skip(2).map(l -> l + "\n").reduce("", String::concat)
        + physicsBlock(o);
  }

  /** The {@code local.aws_physics} block of both configs, or nothing when physics is off. */
  private static String physicsBlock(QuickstartRun.Options o) {
    EndpointConfig.AwsPhysics p = o.local().awsPhysics();
    if (!p.on()) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        "    local:\n      aws_physics: {metric_delay_s: %d, control_calls_per_s: %s,"
            + " instance_start_s: %d}\n",
        p.metricDelayS(),
        Checks.fmt(p.controlCallsPerSecond()),
        p.instanceStartS());
  }
}
