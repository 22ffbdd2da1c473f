package dev.speechscale.loadgen;

import dev.speechscale.artifacts.Histograms;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Percentiles by linear interpolation between closest ranks — the definition DESIGN §3 names and
 * the one numpy calls {@code linear} (Hyndman–Fan type 7): for n sorted values x₀…xₙ₋₁ and
 * percentile p, take the rank h = (n − 1)·p/100 and return x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋+1 − x⌊h⌋). The
 * median of {1, 2, 3, 4} is 2.5; p95 of 1…100 is 95.05.
 *
 * <p>Rung percentiles are computed from the raw samples (exact, nanosecond resolution). {@link
 * #linear(Histogram, double)} applies the same rule to a histogram — used when runs are merged by
 * adding histograms — with each rank's value taken as the middle of its HdrHistogram bucket, so it
 * agrees with the raw figure to the histogram's resolution (3 significant digits, 0.1%).
 */
public final class Percentiles {
  private Percentiles() {}

  /**
   * The p-th percentile of ascending {@code sorted} values.
   *
   * @throws LoadgenException when there are no values or p is outside [0, 100]
   */
  public static double linear(long[] sorted, double p) {
    check(sorted.length, p);
    double h = (sorted.length - 1) * p / 100.0;
    int lo = (int) Math.floor(h);
    if (lo >= sorted.length - 1) {
      return sorted[sorted.length - 1];
    }
    return sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]);
  }

  /** The p-th percentile of a histogram's values, same rule (values in the histogram's unit). */
  public static double linear(Histogram histogram, double p) {
    long n = histogram.getTotalCount();
    check(n, p);
    double h = (n - 1) * p / 100.0;
    long lo = (long) Math.floor(h);
    double low = Double.NaN;
    long seen = 0;
    for (HistogramIterationValue v : histogram.recordedValues()) {
      long count = v.getCountAtValueIteratedTo();
      double value = histogram.medianEquivalentValue(v.getValueIteratedTo());
      if (Double.isNaN(low) && lo < seen + count) {
        low = value;
      }
      if (lo + 1 < seen + count) {
        return low + (h - lo) * (value - low);
      }
      seen += count;
    }
    return low; // lo was the last rank
  }

  private static void check(long n, double p) {
    if (n == 0) {
      throw new LoadgenException("no values to take a percentile of");
    }
    if (!(p >= 0 && p <= 100)) {
      throw new LoadgenException("percentile " + p + " is outside [0, 100]");
    }
  }

  /** Records nanoseconds into a microsecond histogram ({@link Histograms#newMicros()}). */
  static void recordNanos(Histogram micros, long nanos) {
    long us = Math.max(1, Math.min(Histograms.HIGHEST_US, (nanos + 500) / 1000));
    micros.recordValue(us);
  }
}
