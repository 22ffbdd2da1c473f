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
 * @param treatMissingData the alarm's TreatMissingData ({@link TreatMissingData#SCALE_IN_DEPLOYED}
 *     unless told otherwise)
 */
public record StepScaleIn(
    Metric metric,
    MetricStatistic statistic,
    Duration period,
    int datapoints,
    double threshold,
    Duration cooldown,
    TreatMissingData treatMissingData)
    implements ScaleIn, AlarmMetric {
  /** The step scale-in a plan deploys: its alarm treats missing data as {@code notBreaching}. */
  public StepScaleIn(
      Metric metric,
      MetricStatistic statistic,
      Duration period,
      int datapoints,
      double threshold,
      Duration cooldown) {
    this(
        metric,
        statistic,
        period,
        datapoints,
        threshold,
        cooldown,
        TreatMissingData.SCALE_IN_DEPLOYED);
  }

  public StepScaleIn {
    Objects.requireNonNull(treatMissingData, "treatMissingData");
    Checks.alarm("step scale-in", metric, statistic, period, datapoints);
    Checks.finiteNonNegative("scale-in threshold", threshold);
    Checks.cooldown("scale-in cooldown", cooldown);
  }

  StepScaleIn withPeriod(Duration p) {
    return new StepScaleIn(metric, statistic, p, datapoints, threshold, cooldown, treatMissingData);
  }

  /** The same policy with its alarm treating missing data as {@code t}. */
  public StepScaleIn withTreatMissingData(TreatMissingData t) {
    return new StepScaleIn(metric, statistic, period, datapoints, threshold, cooldown, t);
  }
}
