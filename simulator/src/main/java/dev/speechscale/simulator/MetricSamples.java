package dev.speechscale.simulator;

import dev.speechscale.platform.MetricQuery.Metric;
import dev.speechscale.scaling.Datapoints;
import dev.speechscale.scaling.MetricStatistic;
import java.util.Arrays;

/**
 * The simulated CloudWatch: one sample per second per metric, kept for the last hour plus the
 * publication delay, aggregated into aligned periods when a policy asks.
 *
 * <p>Second {@code s}'s sample is taken at time {@code s} and belongs to the period that contains
 * {@code s}, as the local platform's metric store files it. A second with no instance in service
 * has no sample (NaN), and a period with no sample has no datapoint (NaN). Seconds before t = 0 (a
 * pre-roll's) are recorded like any other; nothing before the first recorded second exists.
 */
final class MetricSamples implements Datapoints {
  private final long publicationDelayMs;
  private final int retentionSeconds;
  private final double[][] ring;
  private long latestSecond = -1;
  private long firstSecond = Long.MAX_VALUE;

  MetricSamples(long publicationDelayMs) {
    this.publicationDelayMs = publicationDelayMs;
    this.retentionSeconds =
        (int) Math.min(Integer.MAX_VALUE / 2, 3600 + publicationDelayMs / 1000 + 1);
    this.ring = new double[Metric.values().length][retentionSeconds];
    for (double[] row : ring) {
      Arrays.fill(row, Double.NaN);
    }
  }

  /**
   * Second {@code second}'s samples: in flight on in-service instances per in-service instance,
   * requests routed in the second before it per in-service instance, busy slots in percent.
   */
  void record(long second, double concurrency, double invocations, double busyPercent) {
    int slot = (int) Math.floorMod(second, (long) retentionSeconds);
    firstSecond = Math.min(firstSecond, second);
    ring[Metric.CONCURRENT_REQUESTS_PER_MODEL.ordinal()][slot] = concurrency;
    ring[Metric.INVOCATIONS_PER_INSTANCE.ordinal()][slot] = invocations;
    ring[Metric.CPU_UTILIZATION.ordinal()][slot] = busyPercent;
    latestSecond = second;
  }

  @Override
  public long publicationDelayMs() {
    return publicationDelayMs;
  }

  /**
   * The statistic of {@code count} aligned periods ending at {@code endMs}, oldest first; NaN for a
   * period with no sample or older than the ring holds.
   */
  @Override
  public double[] periods(
      Metric metric, MetricStatistic statistic, long periodMs, int count, long endMs) {
    double[] out = new double[count];
    double[] row = ring[metric.ordinal()];
    long periodS = Math.max(1, periodMs / 1000);
    long endS = Math.floorDiv(endMs, 1000);
    for (int k = 0; k < count; k++) {
      long from = endS - (long) (count - k) * periodS;
      long to = from + periodS;
      out[k] = combine(row, statistic, from, to);
    }
    return out;
  }

  private double combine(double[] row, MetricStatistic combine, long from, long to) {
    double acc = combine == MetricStatistic.MAXIMUM ? Double.NEGATIVE_INFINITY : 0;
    int n = 0;
    long oldest = latestSecond - retentionSeconds + 1;
    for (long s = Math.max(from, Math.max(firstSecond, oldest)); s < to && s <= latestSecond; s++) {
      double v = row[(int) Math.floorMod(s, (long) retentionSeconds)];
      if (Double.isNaN(v)) {
        continue;
      }
      n++;
      acc = combine == MetricStatistic.MAXIMUM ? Math.max(acc, v) : acc + v;
    }
    if (n == 0) {
      return Double.NaN;
    }
    return combine == MetricStatistic.AVERAGE ? acc / n : acc;
  }
}
