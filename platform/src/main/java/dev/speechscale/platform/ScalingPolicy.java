package dev.speechscale.platform;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** A scaling policy as deployed: target tracking, or step scaling driven by an alarm. */
public sealed interface ScalingPolicy {
  String name();

  /**
   * Target tracking on a metric.
   *
   * @param name policy name
   * @param metricName e.g. {@code ConcurrentRequestsPerModel}
   * @param statistic the statistic the policy tracks
   * @param periodSeconds the metric period (10 for high resolution)
   * @param targetValue the target, in the metric's units
   * @param scaleOutCooldownSeconds cooldown after adding capacity
   * @param scaleInCooldownSeconds cooldown after removing capacity
   * @param disableScaleIn true when this policy never removes capacity
   */
  record TargetTracking(
      String name,
      String metricName,
      @Nullable Statistic statistic,
      int periodSeconds,
      double targetValue,
      int scaleOutCooldownSeconds,
      int scaleInCooldownSeconds,
      boolean disableScaleIn)
      implements ScalingPolicy {}

  /**
   * Step scaling triggered by an alarm.
   *
   * @param name policy name
   * @param adjustmentType {@code ChangeInCapacity}
   * @param steps the step adjustments
   * @param cooldownSeconds cooldown after a step
   * @param alarmNames alarms that trigger it
   */
  record StepScaling(
      String name,
      String adjustmentType,
      List<Step> steps,
      int cooldownSeconds,
      List<String> alarmNames)
      implements ScalingPolicy {
    public StepScaling {
      steps = List.copyOf(steps);
      alarmNames = List.copyOf(alarmNames);
    }
  }

  /**
   * One step: when the metric is between the bounds (relative to the alarm threshold), adjust by
   * {@code adjustment}. A {@code null} bound is open.
   *
   * @param lowerBound lower bound, inclusive
   * @param upperBound upper bound, exclusive
   * @param adjustment instances to add (negative to remove)
   */
  record Step(@Nullable Double lowerBound, @Nullable Double upperBound, int adjustment) {}
}
