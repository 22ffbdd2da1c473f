package dev.speechscale.chain;

import dev.speechscale.capacity.Percentiles;
import java.util.Arrays;

/**
 * Percentiles of raw, unsorted samples by linear interpolation between closest ranks: a sorted copy
 * handed to {@link Percentiles#linearAtQuantile(double[], double)} at q = p/100 (the rank rounding
 * the chain has always used).
 */
final class Percentile {
  private Percentile() {}

  static double of(double[] values, double p) {
    if (values.length == 0) {
      throw new ChainException("no samples to take a percentile of");
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return Percentiles.linearAtQuantile(sorted, p / 100.0);
  }
}
