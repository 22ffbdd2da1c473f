package dev.speechscale.artifacts;

import org.jspecify.annotations.Nullable;

/**
 * The metric a plan's target tracking policy tracks, as configs and artifacts spell it ({@code
 * scaling_metric}), with the Application Auto Scaling predefined metric type that deploys it
 * (spelled here only; the CloudWatch metric names are {@code MetricQuery.Metric}'s).
 *
 * <ul>
 *   <li>{@code concurrent_requests_per_model} (the default, what a plan without the field deploys):
 *       {@code SageMakerVariantConcurrentRequestsPerModelHighResolution},
 *       ConcurrentRequestsPerModel Maximum over 10 s, {@code DisableScaleIn}, with the step
 *       scale-in policy on {@code scale_in_alarm} at {@code scale_in_threshold}.
 *   <li>{@code invocations_per_instance}: {@code SageMakerVariantInvocationsPerInstance},
 *       InvocationsPerInstance (requests routed per instance per minute, Sum over 60 s) at {@code
 *       scaling_target_value}, scale-in enabled: the tracking policy removes capacity itself (its
 *       low alarm, 15 minutes below 90 % of the target) after {@code scale_in_cooldown_s}, and no
 *       step scale-in policy is attached, so no second policy can undo its scale-out ({@code
 *       scale_in_threshold} and {@code scale_in_alarm} are not deployed).
 * </ul>
 */
public enum ScalingMetricChoice implements Labelled {
  CONCURRENT_REQUESTS_PER_MODEL("SageMakerVariantConcurrentRequestsPerModelHighResolution"),
  INVOCATIONS_PER_INSTANCE("SageMakerVariantInvocationsPerInstance");

  /** What a config or plan without {@code scaling_metric} deploys. */
  public static final ScalingMetricChoice DEFAULT = CONCURRENT_REQUESTS_PER_MODEL;

  private final String predefinedMetricType;

  ScalingMetricChoice(String predefinedMetricType) {
    this.predefinedMetricType = predefinedMetricType;
  }

  /** Application Auto Scaling's {@code PredefinedMetricType}. */
  public String predefinedMetricType() {
    return predefinedMetricType;
  }

  /** Whether the tracking policy scales in itself (no step scale-in policy is attached). */
  public boolean tracksScaleIn() {
    return this == INVOCATIONS_PER_INSTANCE;
  }

  /** The choice labelled {@code label}; {@code null} for an unknown label. */
  public static @Nullable ScalingMetricChoice ofLabelOrNull(String label) {
    return Labels.ofLabelOrNull(ScalingMetricChoice.class, label);
  }

  /** The choice whose predefined metric type is {@code type}; {@code null} for another. */
  public static @Nullable ScalingMetricChoice ofPredefinedOrNull(String type) {
    for (ScalingMetricChoice c : values()) {
      if (c.predefinedMetricType.equals(type)) {
        return c;
      }
    }
    return null;
  }

  /** The choice labelled {@code label}, or {@link #DEFAULT} for {@code null}. */
  public static ScalingMetricChoice ofLabel(@Nullable String label) {
    return Labels.ofLabel(
        ScalingMetricChoice.class,
        label,
        DEFAULT,
        "scaling_metric",
        "; remove it to track ConcurrentRequestsPerModel");
  }

  /** Every label, comma-separated. */
  public static String labels() {
    return Labels.labels(ScalingMetricChoice.class);
  }

  @Override
  public String toString() {
    return label();
  }
}
