package dev.speechscale.scaling;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The alarm of a plan's step scale-in policy, a closed set: the statistic and period of
 * ConcurrentRequestsPerModel it evaluates, {@value ScalingRules#PLANNED_SCALE_IN_DATAPOINTS}
 * periods at or below the scale-in threshold.
 *
 * <ul>
 *   <li>{@link #AVERAGE_60S}: the Average over 60 s periods, the pair plans deployed until issue
 *       35. After a quiet spell it is still in ALARM when a surge starts (the first minute of the
 *       surge averages with the quiet ones), and a step scale-in is not blocked by target tracking,
 *       so it removes the instance target tracking has just added. Kept for the regression case.
 *   <li>{@link #MAXIMUM_10S}: the Maximum over 10 s periods, the tracking alarm's own statistic and
 *       period. Target tracking fires only after {@value ScalingRules#PLANNED_TRACKING_DATAPOINTS}
 *       periods whose Maximum is above the target, and the scale-in threshold is below the target,
 *       so a fresh scale-out leaves the scale-in alarm out of ALARM: the two cannot fight. It still
 *       scales in, after 30 s of quiet instead of 180 s of low average.
 * </ul>
 */
public enum ScaleInAlarm {
  /** Average over 60 s periods (today's pair before issue 35; it fights target tracking). */
  AVERAGE_60S(MetricStatistic.AVERAGE, Duration.ofSeconds(60)),
  /** Maximum over 10 s periods, the tracking alarm's own: it cannot undo a fresh scale-out. */
  MAXIMUM_10S(MetricStatistic.MAXIMUM, Duration.ofSeconds(10));

  /** What a plan deploys unless told otherwise. */
  public static final ScaleInAlarm DEFAULT = MAXIMUM_10S;

  private final MetricStatistic statistic;
  private final Duration period;

  ScaleInAlarm(MetricStatistic statistic, Duration period) {
    this.statistic = statistic;
    this.period = period;
  }

  /** The name in configs and artifacts, e.g. {@code maximum_10s}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The statistic of each period. */
  public MetricStatistic statistic() {
    return statistic;
  }

  /** The alarm's period. */
  public Duration period() {
    return period;
  }

  /** Consecutive periods at or below the threshold. */
  public int datapoints() {
    return ScalingRules.PLANNED_SCALE_IN_DATAPOINTS;
  }

  /** The alarm of {@code label} ({@code average_60s}, {@code maximum_10s}; case-insensitive). */
  public static ScaleInAlarm ofLabel(String label) {
    for (ScaleInAlarm a : values()) {
      if (a.label().equalsIgnoreCase(label.strip())) {
        return a;
      }
    }
    throw new IllegalArgumentException(
        "scale-in alarm '" + label + "' is not one of " + labels() + "; the default is " + DEFAULT);
  }

  /**
   * The alarm with this CloudWatch statistic and period, as a deployed policy reports it; refuses
   * any other pair (it is not one a plan deploys).
   */
  public static ScaleInAlarm of(MetricStatistic statistic, Duration period) {
    for (ScaleInAlarm a : values()) {
      if (a.statistic == statistic && a.period.equals(period)) {
        return a;
      }
    }
    throw new IllegalArgumentException(
        "no plan deploys a scale-in alarm on the "
            + statistic.awsName()
            + " over "
            + period.toSeconds()
            + " s; choose one of "
            + labels());
  }

  /** Every label, comma-separated. */
  public static String labels() {
    return Arrays.stream(values()).map(ScaleInAlarm::label).collect(Collectors.joining(", "));
  }

  /** The label, e.g. {@code maximum_10s}. */
  @Override
  public String toString() {
    return label();
  }

  /** e.g. {@code Maximum over 10 s x 3}. */
  public String describe() {
    return String.format(
        Locale.ROOT, "%s over %d s x %d", statistic.awsName(), period.toSeconds(), datapoints());
  }
}
