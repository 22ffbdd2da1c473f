package dev.speechscale.scaling;

import dev.speechscale.platform.MetricQuery.Metric;
import java.time.Duration;
import java.util.Objects;

/**
 * The step scale-in policy a SpeechScale plan deploys beside target tracking: an alarm on {@code
 * statistic} of {@code metric} over {@code period}; when the last {@code datapoints} periods are
 * all at or below {@code threshold} (CloudWatch {@code LessThanOrEqualToThreshold}), desired drops
 * by one instance (never below min), at most once per {@code cooldown}.
 *
 * @param metric the alarm's metric
 * @param statistic the statistic of each period
 * @param period the alarm's period
 * @param datapoints consecutive periods that must be at or below the threshold
 * @param threshold the scale-in threshold, in the metric's units
 * @param cooldown after a scale-in, before the next one
 */
public record StepScaleIn(
    Metric metric,
    MetricStatistic statistic,
    Duration period,
    int datapoints,
    double threshold,
    Duration cooldown)
    implements ScaleIn {
  public StepScaleIn {
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(statistic, "statistic");
    Checks.period("step scale-in period", period);
    Checks.datapoints("step scale-in datapoints", datapoints);
    Checks.finiteNonNegative("scale-in threshold", threshold);
    Checks.cooldown("scale-in cooldown", cooldown);
  }

  StepScaleIn withPeriod(Duration p) {
    return new StepScaleIn(metric, statistic, p, datapoints, threshold, cooldown);
  }
}
