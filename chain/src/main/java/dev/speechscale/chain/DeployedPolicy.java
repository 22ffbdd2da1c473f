package dev.speechscale.chain;

import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.Statistic;
import dev.speechscale.scaling.ScaleInAlarm;
import dev.speechscale.scaling.ScalingRules;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The plan's two policies as deployed on an endpoint, read back from the platform: the scalable
 * target, target tracking with its alarm ({@code high}) and step scale-in with its alarm ({@code
 * low}).
 *
 * @param target the scalable target
 * @param tracking the target tracking policy
 * @param step the step scale-in policy
 * @param high tracking's alarm: Maximum over 3 periods
 * @param low the step policy's alarm: Average over 3 periods six times as long
 * @param timeScale the tracking period over AWS's 10 s (1 on AWS, less on a compressed local clock)
 */
record DeployedPolicy(
    ScalingState.ScalableTarget target,
    ScalingPolicy.TargetTracking tracking,
    ScalingPolicy.StepScaling step,
    Alarm high,
    Alarm low,
    double timeScale) {

  /**
   * Reads the policies from {@code s}.
   *
   * @param planFile the plan's path, named in the fix when no scaling is attached
   * @throws ChainException when no plan policy is deployed, or its alarms are not the plan's shape
   */
  static DeployedPolicy read(ScalingState s, String endpoint, String planFile) {
    ScalingState.ScalableTarget target =
        s.target()
            .orElseThrow(() ->
                new ChainException(
                    endpoint
                        + " has no scaling attached ("
                        + s.reason()
                        + "); deploy it behind the plan (speech-infra deploy --plan "
                        + planFile
                        + ") and replay again"));
    ScalingPolicy.TargetTracking tracking =
        policy(s, ScalingPolicy.TargetTracking.class, endpoint, "target tracking");
    ScalingPolicy.StepScaling step =
        policy(s, ScalingPolicy.StepScaling.class, endpoint, "step scale-in");
    Alarm high = alarm(s, a -> a.actions().contains(tracking.name()), endpoint, tracking.name());
    Alarm low = alarm(s, a -> step.alarmNames().contains(a.name()), endpoint, step.name());
    double timeScale = high.periodSeconds() / 10.0;
    requirePeriods(endpoint, high, high.periodSeconds(), Statistic.MAXIMUM);
    ScaleInAlarm alarm =
        low.statistic() == Statistic.MAXIMUM ? ScaleInAlarm.MAXIMUM_10S : ScaleInAlarm.AVERAGE_60S;
    requirePeriods(
        endpoint,
        low,
        (int) Math.max(1, Math.round(alarm.period().toSeconds() * timeScale)),
        low.statistic() == Statistic.MAXIMUM ? Statistic.MAXIMUM : Statistic.AVERAGE);
    return new DeployedPolicy(target, tracking, step, high, low, timeScale);
  }

  /** The rules the shared scaling engine runs, on AWS's clock (not time-scaled). */
  ScalingRules rules() {
    return ScalingRules.planned(
        tracking.targetValue(),
        low.threshold(),
        target.minCapacity(),
        target.maxCapacity(),
        Duration.ofSeconds(tracking.scaleOutCooldownSeconds()),
        Duration.ofSeconds(step.cooldownSeconds()),
        scaleInAlarm());
  }

  /** The deployed scale-in alarm: Maximum over 10 s, or Average over 60 s (before issue 35). */
  ScaleInAlarm scaleInAlarm() {
    return low.statistic() == Statistic.MAXIMUM
        ? ScaleInAlarm.MAXIMUM_10S
        : ScaleInAlarm.AVERAGE_60S;
  }

  private static <T extends ScalingPolicy> T policy(
      ScalingState s, Class<T> type, String endpoint, String what) {
    return s.policies().stream()
        .filter(type::isInstance)
        .map(type::cast)
        .findFirst()
        .orElseThrow(() ->
            new ChainException(
                endpoint
                    + " has no "
                    + what
                    + " policy; the replay predicts the plan's two policies as deployed:"
                    + " redeploy behind the plan"));
  }

  private static Alarm alarm(
      ScalingState s, Predicate<Alarm> belongs, String endpoint, String policyName) {
    return s.alarms().stream()
        .filter(belongs)
        .findFirst()
        .orElseThrow(() ->
            new ChainException(
                endpoint + ": policy " + policyName + " has no alarm; redeploy behind the plan"));
  }

  private static void requirePeriods(String endpoint, Alarm a, int periodS, Statistic statistic) {
    if (a.periodSeconds() != periodS || a.evaluationPeriods() != 3 || a.statistic() != statistic) {
      throw new ChainException(
          String.format(
              Locale.ROOT,
              "%s: alarm %s reads the %s over %d periods of %d s, but a plan deploys the %s over 3"
                  + " periods of %d s (its scale_in_alarm, time-scaled locally); redeploy behind the"
                  + " plan to replay",
              endpoint,
              a.name(),
              a.statistic(),
              a.evaluationPeriods(),
              a.periodSeconds(),
              statistic,
              periodS));
    }
  }
}
