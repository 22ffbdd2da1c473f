package dev.speechscale.scaling;

import dev.speechscale.platform.MetricQuery.Metric;
import java.time.Duration;

/**
 * The scale-out side of a target tracking policy: its high alarm and the proportional step.
 *
 * <p>When the last {@code datapoints} periods all exceed {@code targetValue} (CloudWatch {@code
 * GreaterThanThreshold}), desired becomes {@code min(max, ⌈inService × latest / target⌉)} if that
 * is more than desired now, at most once per {@code scaleOutCooldown}. The scale-in side, if any,
 * is {@link ScaleIn.Tracking} in {@link ScalingRules#scaleIn()}; without it the policy is deployed
 * with {@code DisableScaleIn}.
 *
 * @param metric the tracked metric
 * @param statistic the statistic of each period
 * @param period the alarm's period
 * @param datapoints consecutive periods that must exceed the target
 * @param targetValue the target, in the metric's units
 * @param scaleOutCooldown after a scale-out, before the next one
 */
public record TargetTracking(
    Metric metric,
    MetricStatistic statistic,
    Duration period,
    int datapoints,
    double targetValue,
    Duration scaleOutCooldown)
    implements AlarmMetric {
  public TargetTracking {
    Checks.alarm("target tracking", metric, statistic, period, datapoints);
    Checks.positiveFinite("target value", targetValue);
    Checks.cooldown("scale-out cooldown", scaleOutCooldown);
  }

  TargetTracking withPeriod(Duration p) {
    return new TargetTracking(metric, statistic, p, datapoints, targetValue, scaleOutCooldown);
  }
}
