package dev.speechscale.chain;

import java.util.Arrays;

/** Percentiles of raw samples by linear interpolation between closest ranks. */
final class Percentile {
  private Percentile() {}

  static double of(double[] values, double p) {
    if (values.length == 0) {
      throw new ChainException("no samples to take a percentile of");
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double rank = p / 100.0 * (sorted.length - 1);
    int lo = (int) Math.floor(rank);
    int hi = Math.min(sorted.length - 1, lo + 1);
    return sorted[lo] + (rank - lo) * (sorted[hi] - sorted[lo]);
  }
}
