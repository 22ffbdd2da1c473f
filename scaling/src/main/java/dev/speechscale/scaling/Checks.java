package dev.speechscale.scaling;

import dev.speechscale.platform.MetricQuery.Metric;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/** Validation shared by the rules' compact constructors; messages name thing, value, rule, fix. */
final class Checks {
  private Checks() {}

  /**
   * What an alarm watches and how long it must breach ({@link AlarmMetric}): {@code what} names the
   * alarm's policy in the messages ({@code target tracking period}, {@code step scale-in
   * datapoints}).
   */
  static void alarm(
      String what, Metric metric, MetricStatistic statistic, Duration period, int datapoints) {
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(statistic, "statistic");
    period(what + " period", period);
    datapoints(what + " datapoints", datapoints);
  }

  static void period(String what, Duration period) {
    Objects.requireNonNull(period, what);
    if (period.toMillis() < 1000) {
      throw new IllegalArgumentException(
          what
              + " ("
              + period
              + ") must be at least 1 s: CloudWatch's shortest alarm period is 10 s and the local"
              + " platform compresses no further than 1 s; lengthen it");
    }
  }

  static void cooldown(String what, Duration cooldown) {
    Objects.requireNonNull(cooldown, what);
    if (cooldown.isNegative()) {
      throw new IllegalArgumentException(
          what + " (" + cooldown + ") must not be negative; use Duration.ZERO for none");
    }
  }

  static void datapoints(String what, int datapoints) {
    if (datapoints < 1) {
      throw new IllegalArgumentException(
          what + " (" + datapoints + ") must be at least 1: an alarm needs a datapoint to breach");
    }
  }

  static void positiveFinite(String what, double value) {
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "%s (%s) must be a finite number above 0; the policy divides by it",
              what,
              value));
    }
  }

  static void finiteNonNegative(String what, double value) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(
          String.format(Locale.ROOT, "%s (%s) must be a finite number of at least 0", what, value));
    }
  }
}
