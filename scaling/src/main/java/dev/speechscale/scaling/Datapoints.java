package dev.speechscale.scaling;

import dev.speechscale.platform.MetricQuery.Metric;

/**
 * Where the engine reads datapoints: the local metric store, the simulator's samples, CloudWatch.
 */
public interface Datapoints {
  /**
   * The statistic over the {@code count} aligned periods {@code [endMs - count*periodMs, endMs)},
   * oldest first; {@link Double#NaN} for a period with no (published) data.
   *
   * @param metric the metric
   * @param statistic the statistic over each period
   * @param periodMs period length, ms
   * @param count how many periods
   * @param endMs the end of the newest period, a multiple of {@code periodMs}
   * @return {@code count} values, oldest first
   */
  double[] periods(Metric metric, MetricStatistic statistic, long periodMs, int count, long endMs);

  /**
   * How long after a period ends its datapoint becomes readable: 0 locally, a minute or more on
   * CloudWatch. The engine evaluates the periods that ended at least this long ago.
   */
  default long publicationDelayMs() {
    return 0;
  }
}
