package dev.speechscale.scaling;

import dev.speechscale.platform.MetricQuery.Metric;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A metric sampled once a second from an epoch-aligned start, aggregated into periods on read as
 * CloudWatch does; a second without a sample (NaN) is skipped, a period without any is NaN.
 */
final class SecondSamples implements Datapoints {
  /** 2025-12-01T00:00:00Z: a multiple of every period the tests use. */
  static final long T0_MS = 1_764_547_200_000L;

  private final long startMs;
  private double[] perSecond = new double[0];
  private long delayMs;
  final List<Long> askedEndMs = new ArrayList<>();

  SecondSamples(long startMs) {
    this.startMs = startMs;
  }

  SecondSamples() {
    this(T0_MS);
  }

  /** Sets seconds {@code [fromS, toS)} after the start to {@code value}. */
  SecondSamples set(int fromS, int toS, double value) {
    if (toS > perSecond.length) {
      int old = perSecond.length;
      perSecond = Arrays.copyOf(perSecond, toS);
      Arrays.fill(perSecond, old, toS, Double.NaN);
    }
    Arrays.fill(perSecond, fromS, toS, value);
    return this;
  }

  SecondSamples delay(long ms) {
    this.delayMs = ms;
    return this;
  }

  @Override
  public long publicationDelayMs() {
    return delayMs;
  }

  @Override
  public double[] periods(
      Metric metric, MetricStatistic statistic, long periodMs, int count, long endMs) {
    askedEndMs.add(endMs);
    double[] out = new double[count];
    for (int i = 0; i < count; i++) {
      long from = endMs - (long) (count - i) * periodMs;
      out[i] = aggregate(statistic, from, from + periodMs);
    }
    return out;
  }

  private double aggregate(MetricStatistic statistic, long fromMs, long toMs) {
    double sum = 0;
    double max = Double.NEGATIVE_INFINITY;
    int n = 0;
    int first = (int) Math.max(0, Math.floorDiv(fromMs - startMs, 1000L));
    int last =
        (int) Math.min(perSecond.length, Math.max(0, Math.floorDiv(toMs - startMs, 1000L) + 1));
    for (int s = first; s < last; s++) {
      long at = startMs + s * 1000L;
      if (at < fromMs || at >= toMs || Double.isNaN(perSecond[s])) {
        continue;
      }
      sum += perSecond[s];
      max = Math.max(max, perSecond[s]);
      n++;
    }
    if (n == 0) {
      return Double.NaN;
    }
    return switch (statistic) {
      case MAXIMUM -> max;
      case AVERAGE -> sum / n;
      case SUM -> sum;
    };
  }
}
