package dev.speechscale.artifacts;

import dev.speechscale.platform.MetricQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Decides whether an endpoint gets autoscaling: only behind a plan artifact for the same model,
 * measured against the same deployment (fingerprint), not INFEASIBLE, carrying a measured units
 * conversion, and agreeing with the config on every value it deploys. Otherwise the endpoint runs
 * at {@code min_instances} with no policies, and the decision says why. Both platforms use this one
 * gate.
 */
public final class ScalingGate {
  private ScalingGate() {}

  /** The gate's answer. */
  public sealed interface Decision {
    String reason();

    /**
     * Attach scaling with these values.
     *
     * @param effective the config with the plan's values filled in
     * @param plan the plan behind it
     * @param reason a one-line summary
     */
    record Attach(EndpointConfig effective, PlanArtifact plan, String reason) implements Decision {}

    /**
     * No scaling.
     *
     * @param reason why, and what to do
     */
    record Withhold(String reason) implements Decision {}
  }

  /**
   * Decides.
   *
   * @param config the endpoint config
   * @param deployed the fingerprint of what is (or will be) deployed
   * @param plan the plan artifact, or {@code null} when none was found
   * @param planSource where the plan was looked for, for messages
   */
  public static Decision decide(
      EndpointConfig config,
      DeployedConfig deployed,
      @Nullable PlanArtifact plan,
      String planSource) {
    String model = "models." + config.modelName();
    if (config.minInstances() == config.maxInstances()) {
      return new Decision.Withhold(
          model
              + ": min_instances equals max_instances ("
              + config.minInstances()
              + "), so there is nothing to scale");
    }
    if (plan == null) {
      return new Decision.Withhold(
          "no plan artifact (looked for "
              + planSource
              + "): run `tts-bench plan`; until then the"
              + " endpoint runs at min_instances ("
              + config.minInstances()
              + ") with no policies");
    }
    Decision.Withhold refused = refusedPlan(config, deployed, plan, planSource);
    if (refused != null) {
      return refused;
    }
    List<String> mismatches = mismatches(config, plan, model);
    if (!mismatches.isEmpty()) {
      return new Decision.Withhold(
          "the config disagrees with "
              + planSource
              + ": "
              + String.join("; ", mismatches)
              + ". Copy the plan's endpoint configuration block into the config");
    }
    return attach(config.withPlanValues(plan), plan, planSource);
  }

  /** Why the plan cannot stand behind this config, or {@code null} when it can. */
  private static Decision.@Nullable Withhold refusedPlan(
      EndpointConfig config, DeployedConfig deployed, PlanArtifact plan, String planSource) {
    if (!config.modelName().equals(plan.model())) {
      return new Decision.Withhold(
          planSource
              + " is a plan for model '"
              + plan.model()
              + "', not '"
              + config.modelName()
              + "'");
    }
    if (!DeployedConfig.sameDeployment(plan.deployedConfig(), deployed)) {
      return new Decision.Withhold(
          planSource
              + " was measured against another deployment than this one ("
              + DeployedConfig.slugOf(plan.deployedConfig())
              + " against "
              + DeployedConfig.slugOf(deployed)
              + "; the fingerprint must match in instance_type, image_digest and every"
              + " container_env variable): "
              + String.join("; ", DeployedConfig.differences(plan.deployedConfig(), deployed))
              + ". Re-measure (qmax, ttotal, plan) against this deployment, or deploy what was"
              + " measured");
    }
    if (plan.infeasible()) {
      return new Decision.Withhold(planSource + " is INFEASIBLE: fix what its findings say first");
    }
    if (!plan.hasUnitsConversion()) {
      return new Decision.Withhold(
          planSource
              + " carries no measured units conversion (threshold_units suppressed), so its"
              + " thresholds are in client units and would misfire against "
              + MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName());
    }
    return null;
  }

  /** Every value the config sets that differs from the plan's. */
  private static List<String> mismatches(EndpointConfig config, PlanArtifact plan, String model) {
    List<String> mismatches = new ArrayList<>();
    compare(mismatches, model, "min_instances", config.minInstances(), plan.minInstances());
    compare(mismatches, model, "max_instances", config.maxInstances(), plan.maxInstances());
    compare(mismatches, model, "queue_max_depth", config.queueMaxDepth(), plan.queueMaxDepth());
    compare(
        mismatches, model, "ttfab_slo_ms", config.ttfabSloMs(), plan.endpointConfig().ttfabSloMs());
    compare(
        mismatches,
        model,
        "scaling_target_value",
        config.scalingTargetValue(),
        plan.scalingTargetValue());
    compare(
        mismatches,
        model,
        "scale_in_threshold",
        config.scaleInThreshold(),
        plan.scaleInThreshold());
    compare(
        mismatches,
        model,
        "scale_out_cooldown_s",
        config.scaleOutCooldownS(),
        plan.scaleOutCooldownS());
    compare(
        mismatches,
        model,
        "scale_in_cooldown_s",
        config.scaleInCooldownS(),
        plan.scaleInCooldownS());
    return mismatches;
  }

  private static Decision.Attach attach(
      EndpointConfig effective, PlanArtifact plan, String planSource) {
    return new Decision.Attach(
        effective,
        plan,
        String.format(
            Locale.ROOT,
            "scaling attached behind %s (verdict %s): target %.3f, scale-in %.3f, cooldowns %d s /"
                + " %d s, %d..%d instances",
            planSource,
            plan.verdict().label(),
            effective.scalingTargetValue(),
            effective.scaleInThreshold(),
            effective.scaleOutCooldownS(),
            effective.scaleInCooldownS(),
            effective.minInstances(),
            effective.maxInstances()));
  }

  private static void compare(
      List<String> out,
      String model,
      String field,
      @Nullable Number configValue,
      @Nullable Number planValue) {
    if (configValue == null) {
      return;
    }
    boolean same =
        planValue != null && Math.abs(configValue.doubleValue() - planValue.doubleValue()) < 1e-6;
    if (!same) {
      out.add(
          model
              + "."
              + field
              + " ("
              + configValue
              + ") differs from the plan's ("
              + Objects.toString(planValue)
              + ")");
    }
  }
}
