package dev.speechscale.chain;

import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import java.util.Locale;
import java.util.Optional;

/**
 * The policy's detection lag, bounded from the deployed policy: the tracking alarm's period times
 * its evaluation periods, plus the scale-out cooldown, plus the platform's metric publication delay
 * (an alarm sees a datapoint only once it is published). A forced scale-out bypasses it, so ttotal
 * reads it rather than measuring it.
 *
 * @param seconds the bound
 * @param source where it came from, in words
 */
record PolicyLag(double seconds, String source) {
  /** AWS's high-resolution period and evaluation periods for ConcurrentRequestsPerModel. */
  static final int DEFAULT_PERIOD_S = 10;

  static final int DEFAULT_EVALUATION_PERIODS = 3;

  static PolicyLag read(Platform platform, String endpoint) {
    ScalingState s = platform.scalingState(endpoint);
    double delayS = platform.physics(endpoint).metricPublicationDelay().toMillis() / 1000.0;
    Optional<ScalingPolicy.TargetTracking> tracking =
        s.policies().stream()
            .filter(ScalingPolicy.TargetTracking.class::isInstance)
            .map(ScalingPolicy.TargetTracking.class::cast)
            .findFirst();
    if (tracking.isPresent()) {
      ScalingPolicy.TargetTracking t = tracking.get();
      int evaluations =
          s.alarms().stream()
              .filter(a -> t.metricName().equals(a.metricName()) && a.statistic() == t.statistic())
              .mapToInt(Alarm::evaluationPeriods)
              .findFirst()
              .orElse(DEFAULT_EVALUATION_PERIODS);
      double lag = (double) t.periodSeconds() * evaluations + t.scaleOutCooldownSeconds() + delayS;
      return new PolicyLag(
          lag,
          String.format(
              Locale.ROOT,
              "deployed policy %s: %d s period x %d evaluation periods + %d s scale-out cooldown%s",
              t.name(),
              t.periodSeconds(),
              evaluations,
              t.scaleOutCooldownSeconds(),
              delay(delayS)));
    }
    // No policy yet (a ladder measured before any plan): bound it by the policy a plan deploys,
    // 10 s x 3 periods plus a scale-out cooldown of min(30, T/2), which is 30 s for any T >= 60 s.
    int cooldown = 30;
    double lag = DEFAULT_PERIOD_S * DEFAULT_EVALUATION_PERIODS + cooldown + delayS;
    return new PolicyLag(
        lag,
        "no policy is deployed yet ("
            + s.reason()
            + "), so bounded by the"
            + " policy a plan deploys: 10 s period x 3 evaluation periods + 30 s scale-out cooldown"
            + delay(delayS));
  }

  /** The alarm reads datapoints only once published, so the platform's delay adds to the lag. */
  private static String delay(double delayS) {
    return delayS > 0
        ? String.format(
            Locale.ROOT, " + %s s metric publication delay (the platform's)", Checks.fmt(delayS))
        : "";
  }
}
