package dev.speechscale.simulator;

import java.util.Arrays;

/**
 * The simulated CloudWatch: one sample per second per metric, kept for the last hour plus the
 * publication delay, aggregated into aligned periods when a policy asks.
 *
 * <p>Second {@code s}'s sample is taken at time {@code s} and belongs to the period that contains
 * {@code s}, as the local platform's metric store files it. A second with no instance in service
 * has no sample (NaN), and a period with no sample has no datapoint (NaN).
 */
final class MetricSamples {
  /** The sampled metrics, in the order of the ring's rows. */
  enum Series {
    /** In flight on in-service instances / in-service instances. */
    CONCURRENCY,
    /** Requests routed in the second / in-service instances. */
    INVOCATIONS,
    /** Busy slots / slots over in-service instances, in percent. */
    BUSY_PERCENT
  }

  /** How a period's samples combine. */
  enum Combine {
    MAXIMUM,
    AVERAGE,
    SUM
  }

  private final int retentionSeconds;
  private final double[][] ring;
  private long latestSecond = -1;

  MetricSamples(long publicationDelaySeconds) {
    this.retentionSeconds = (int) Math.min(Integer.MAX_VALUE / 2, 3600 + publicationDelaySeconds);
    this.ring = new double[Series.values().length][retentionSeconds];
    for (double[] row : ring) {
      Arrays.fill(row, Double.NaN);
    }
  }

  void record(long second, double concurrency, double invocations, double busyPercent) {
    int slot = (int) (second % retentionSeconds);
    ring[Series.CONCURRENCY.ordinal()][slot] = concurrency;
    ring[Series.INVOCATIONS.ordinal()][slot] = invocations;
    ring[Series.BUSY_PERCENT.ordinal()][slot] = busyPercent;
    latestSecond = second;
  }

  /**
   * The statistic of {@code count} aligned periods ending at {@code endMs}, oldest first; NaN for a
   * period with no sample or older than the ring holds.
   */
  double[] periods(Series series, Combine combine, long periodMs, int count, long endMs) {
    double[] out = new double[count];
    double[] row = ring[series.ordinal()];
    long periodS = Math.max(1, periodMs / 1000);
    long endS = Math.floorDiv(endMs, 1000);
    for (int k = 0; k < count; k++) {
      long from = endS - (long) (count - k) * periodS;
      long to = from + periodS;
      out[k] = combine(row, combine, from, to);
    }
    return out;
  }

  private double combine(double[] row, Combine combine, long from, long to) {
    double acc = combine == Combine.MAXIMUM ? Double.NEGATIVE_INFINITY : 0;
    int n = 0;
    long oldest = latestSecond - retentionSeconds + 1;
    for (long s = Math.max(from, Math.max(0, oldest)); s < to && s <= latestSecond; s++) {
      double v = row[(int) (s % retentionSeconds)];
      if (Double.isNaN(v)) {
        continue;
      }
      n++;
      acc = combine == Combine.MAXIMUM ? Math.max(acc, v) : acc + v;
    }
    if (n == 0) {
      return Double.NaN;
    }
    return combine == Combine.AVERAGE ? acc / n : acc;
  }
}
