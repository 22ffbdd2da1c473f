package dev.speechscale.chain;

import dev.speechscale.artifacts.DriftArtifact;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.ScaleInAlarmChoice;
import dev.speechscale.artifacts.ScheduledFloorEntry;
import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.ScheduledAction;
import dev.speechscale.platform.Statistic;
import dev.speechscale.scaling.ScheduledFloor;
import dev.speechscale.scaling.TreatMissingData;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * {@code drift}'s comparison of the deployed scalable target and policies with the planned endpoint
 * configuration: min/max capacity, the scheduled floors (scheduled actions), the target-tracking
 * policy (metric, target, cooldowns, scale-in disabled) and the step scale-in policy with its alarm
 * (threshold, statistic, treatment of missing data).
 */
final class DriftPolicies {
  private DriftPolicies() {}

  static void compareTarget(
      List<DriftArtifact.Item> items, EndpointConfig want, ScalingState.ScalableTarget t) {
    compare(
        items,
        "min_capacity",
        Integer.toString(want.minInstances()),
        Integer.toString(t.minCapacity()),
        "the scalable target's minimum differs");
    compare(
        items,
        "max_capacity",
        Integer.toString(want.maxInstances()),
        Integer.toString(t.maxCapacity()),
        "the scalable target's maximum differs");
    compare(
        items,
        "scheduled_floors",
        floors(want.scheduledFloorsOrNone()),
        deployedFloors(t.scheduledActions()),
        "the scalable target's scheduled actions (minimum-capacity floors) differ from the"
            + " plan's scheduled_floors; redeploy");
  }

  /** An error for {@code check} when what is deployed is not what is planned. */
  private static void compare(
      List<DriftArtifact.Item> items, String check, String expected, String actual, String detail) {
    if (!expected.equals(actual)) {
      items.add(Drift.error(check, expected, actual, detail));
    }
  }

  /** An error for {@code check} when a deployed value is more than 1e-6 off the planned one. */
  private static void compare(
      List<DriftArtifact.Item> items, String check, double expected, double actual, String detail) {
    if (Math.abs(actual - expected) > 1e-6) {
      items.add(Drift.error(check, fmt(expected), fmt(actual), detail));
    }
  }

  /** Planned floors as {@code HH:MM min N, ...} (sorted by time), {@code none} for none. */
  static String floors(List<ScheduledFloorEntry> floors) {
    if (floors.isEmpty()) {
      return "none";
    }
    return floors.stream()
        .map(f -> f.at() + " min " + f.minCapacity())
        .collect(java.util.stream.Collectors.joining(", "));
  }

  /**
   * Deployed scheduled actions in the same form; one that is not a daily MinCapacity-only floor is
   * shown as its schedule and capacities, so it differs from every planned floor.
   */
  static String deployedFloors(List<ScheduledAction> actions) {
    if (actions.isEmpty()) {
      return "none";
    }
    return actions.stream()
        .map(DriftPolicies::deployedFloor)
        .sorted()
        .collect(java.util.stream.Collectors.joining(", "));
  }

  private static String deployedFloor(ScheduledAction a) {
    if (a.minCapacity() != null && a.maxCapacity() == null) {
      try {
        return ScheduledFloor.ofCron(a.schedule(), a.minCapacity()).hhmm()
            + " min "
            + a.minCapacity();
      } catch (IllegalArgumentException notDaily) {
        // falls through to the raw form
      }
    }
    return a.schedule() + " min " + a.minCapacity() + " max " + a.maxCapacity();
  }

  static void comparePolicies(List<DriftArtifact.Item> items, EndpointConfig want, ScalingState s) {
    List<ScalingPolicy.TargetTracking> tracking =
        s.policies().stream()
            .filter(ScalingPolicy.TargetTracking.class::isInstance)
            .map(ScalingPolicy.TargetTracking.class::cast)
            .toList();
    List<ScalingPolicy.StepScaling> steps =
        s.policies().stream()
            .filter(ScalingPolicy.StepScaling.class::isInstance)
            .map(ScalingPolicy.StepScaling.class::cast)
            .toList();
    boolean trackedIn = want.scalingMetricOrDefault().tracksScaleIn();
    int wantSteps = trackedIn ? 0 : 1;
    if (tracking.size() != 1 || steps.size() != wantSteps) {
      items.add(
          Drift.error(
              "policies",
              trackedIn
                  ? "1 target tracking (scale-in enabled), no step scale-in"
                  : "1 target tracking + 1 step scale-in",
              tracking.size() + " target tracking + " + steps.size() + " step",
              "orphaned or missing policies on the endpoint; destroy and redeploy"));
    }
    if (!tracking.isEmpty()) {
      compareTracking(items, want, tracking.getFirst());
    }
    if (!steps.isEmpty() && !trackedIn) {
      compareStep(items, want, steps.getFirst(), s);
    }
  }

  private static void compareTracking(
      List<DriftArtifact.Item> items, EndpointConfig want, ScalingPolicy.TargetTracking t) {
    boolean trackedIn = want.scalingMetricOrDefault().tracksScaleIn();
    String tracked =
        trackedIn
            ? MetricQuery.Metric.INVOCATIONS_PER_INSTANCE.cloudWatchName()
            : MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName();
    Statistic statistic = trackedIn ? Statistic.SUM : Statistic.MAXIMUM;
    if (!t.metricName().equals(tracked) || t.statistic() != statistic) {
      items.add(
          Drift.error(
              "tracking_metric",
              tracked + (trackedIn ? " Sum" : " Maximum"),
              t.metricName() + " " + t.statistic(),
              trackedIn
                  ? "the policy tracks another metric than the plan's scaling_metric ("
                      + want.scalingMetricOrDefault()
                      + ")"
                  : "the policy tracks the wrong metric"));
    }
    double targetValue = planned(want.scalingTargetValue(), "scaling_target_value");
    compare(
        items,
        "target_value",
        targetValue,
        t.targetValue(),
        "the deployed target differs from the plan");
    if (t.disableScaleIn() == trackedIn) {
      items.add(
          Drift.error(
              "disable_scale_in",
              Boolean.toString(!trackedIn),
              Boolean.toString(t.disableScaleIn()),
              trackedIn
                  ? "target tracking on InvocationsPerInstance must scale in itself; no step"
                      + " policy does"
                  : "target tracking may scale in; only the step policy should"));
    }
    if (trackedIn) {
      compareScaleInCooldown(items, want, t.scaleInCooldownSeconds());
    }
    compare(
        items,
        "scale_out_cooldown",
        planned(want.scaleOutCooldownS(), "scale_out_cooldown_s") + "s",
        t.scaleOutCooldownSeconds() + "s",
        "the deployed scale-out cooldown differs");
  }

  private static void compareScaleInCooldown(
      List<DriftArtifact.Item> items, EndpointConfig want, int deployedS) {
    compare(
        items,
        "scale_in_cooldown",
        planned(want.scaleInCooldownS(), "scale_in_cooldown_s") + "s",
        deployedS + "s",
        "the deployed scale-in cooldown differs");
  }

  private static void compareStep(
      List<DriftArtifact.Item> items,
      EndpointConfig want,
      ScalingPolicy.StepScaling step,
      ScalingState s) {
    compareScaleInCooldown(items, want, step.cooldownSeconds());
    Optional<Alarm> alarm =
        s.alarms().stream().filter(a -> step.alarmNames().contains(a.name())).findFirst();
    if (alarm.isEmpty()) {
      items.add(
          Drift.error(
              "scale_in_alarm",
              "an alarm driving " + step.name(),
              "none",
              "the step scale-in policy has no alarm; it never fires"));
    } else {
      Alarm a = alarm.get();
      compare(
          items,
          "scale_in_threshold",
          planned(want.scaleInThreshold(), "scale_in_threshold"),
          a.threshold(),
          "the scale-in alarm's threshold differs from the plan");
      ScaleInAlarmChoice planned = want.scaleInAlarmOrDefault();
      Statistic statistic =
          planned == ScaleInAlarmChoice.MAXIMUM_10S ? Statistic.MAXIMUM : Statistic.AVERAGE;
      if (a.statistic() != statistic || a.evaluationPeriods() != 3) {
        items.add(
            Drift.error(
                "scale_in_statistic",
                planned.statistic() + " over 3 periods",
                a.statistic() + " over " + a.evaluationPeriods(),
                "the scale-in alarm reads the wrong statistic"));
      }
      // an alarm that states none is CloudWatch's default, missing
      String treat = a.treatMissingData() == null ? "missing" : a.treatMissingData();
      String deployed = TreatMissingData.SCALE_IN_DEPLOYED.awsName();
      compare(
          items,
          "scale_in_treat_missing_data",
          deployed,
          treat,
          "the scale-in alarm treats missing data otherwise than the stacks deploy it ("
              + deployed
              + ": a period without data is never read as quiet); redeploy");
    }
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }

  /**
   * A scaling value of the effective config: the scaling gate attaches only a config whose plan
   * filled every one in ({@code EndpointConfig.withPlanValues} over a plan with a units
   * conversion), so {@code null} here is a bug upstream, not a drift.
   */
  private static <T> T planned(@Nullable T value, String field) {
    if (value == null) {
      throw new IllegalStateException(
          "the effective endpoint config has no "
              + field
              + ", but the scaling gate attaches only configs whose plan fills it in"
              + " (ScalingGate.decide): report this with the plan and the config");
    }
    return value;
  }
}
