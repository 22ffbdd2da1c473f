package dev.speechscale.capacity;

import java.util.function.IntToDoubleFunction;

/**
 * The one percentile helper of the code base. It holds two definitions, kept apart because their
 * callers define different statistics:
 *
 * <ul>
 *   <li><b>Linear interpolation between closest ranks</b> (DESIGN §3; numpy's {@code linear},
 *       Hyndman–Fan type 7): for n ascending values x₀…xₙ₋₁ and rank h = (n − 1)·p/100, the value
 *       x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋+1 − x⌊h⌋). The median of {1, 2, 3, 4} is 2.5; p95 of 1…100 is 95.05.
 *       Latency percentiles of rungs, validate and replay use it.
 *   <li><b>Nearest rank</b>: the ⌈q·n⌉-th smallest value (at least the first). It is always one of
 *       the values; the p90 of ten T_total runs is the slowest. T_total statistics and a rung's p95
 *       order-statistic check use it.
 * </ul>
 *
 * <p>The linear rule has two entry points because the rank's floating-point rounding depends on how
 * the caller states p: {@link #linear(long[], double)} takes a percentile and rounds once, h = (n −
 * 1)·p/100; {@link #linearAtQuantile(double[], double)} takes a quantile q = p/100 and computes h =
 * q·(n − 1). The two agree exactly at p = 25, 50 and 75 but can differ in the last bit elsewhere
 * (p95 of four values: h = 2.85 against 2.8499999999999996), so each caller keeps the one it has
 * always used and its figures stay bit-for-bit the same.
 */
public final class Percentiles {
  private Percentiles() {}

  /**
   * The p-th percentile of ascending {@code sorted} values by linear interpolation, rank h = (n −
   * 1)·p/100.
   *
   * @throws CapacityException when there are no values or p is outside [0, 100]
   */
  public static double linear(long[] sorted, double p) {
    // long to double is exact below 2^53 (104 days in nanoseconds), so the difference of two
    // converted values is the converted difference
    return interpolate(linearRank(sorted.length, p), sorted.length, i -> sorted[i]);
  }

  /**
   * The 0-based fractional rank h = (n − 1)·p/100 of the p-th percentile of n values, the rank
   * {@link #linear(long[], double)} interpolates at (for readers that hold counts, not values).
   *
   * @throws CapacityException when n is 0 or p is outside [0, 100]
   */
  public static double linearRank(long n, double p) {
    if (n <= 0) {
      throw new CapacityException("no values to take a percentile of");
    }
    if (!(p >= 0 && p <= 100)) {
      throw new CapacityException("percentile " + p + " is outside [0, 100]");
    }
    return (n - 1) * p / 100.0;
  }

  /**
   * The q-quantile of ascending {@code sorted} values by linear interpolation, rank h = q·(n − 1).
   *
   * @throws CapacityException when there are no values or q is outside [0, 1]
   */
  public static double linearAtQuantile(double[] sorted, double q) {
    checkQuantile(sorted.length, q);
    return interpolate(q * (sorted.length - 1), sorted.length, i -> sorted[i]);
  }

  /**
   * The 1-based nearest rank of the q-quantile among n values: ⌈q·n⌉, and at least 1.
   *
   * @throws CapacityException when n is not positive or q is outside [0, 1]
   */
  public static int nearestRank(int n, double q) {
    checkQuantile(n, q);
    return Math.max(1, (int) Math.ceil(q * n));
  }

  /**
   * The q-quantile of ascending {@code sorted} values by nearest rank: the ⌈q·n⌉-th smallest.
   *
   * @throws CapacityException when there are no values or q is outside [0, 1]
   */
  public static double nearestRank(double[] sorted, double q) {
    return sorted[nearestRank(sorted.length, q) - 1];
  }

  /** x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋+1 − x⌊h⌋) over n ascending values x, the last one from h = n − 1 on. */
  private static double interpolate(double h, int n, IntToDoubleFunction x) {
    int lo = (int) Math.floor(h);
    if (lo >= n - 1) {
      return x.applyAsDouble(n - 1);
    }
    double low = x.applyAsDouble(lo);
    return low + (h - lo) * (x.applyAsDouble(lo + 1) - low);
  }

  private static void checkQuantile(int n, double q) {
    if (n <= 0) {
      throw new CapacityException("no values to take a quantile of (n = " + n + ")");
    }
    if (!(q >= 0 && q <= 1)) {
      throw new CapacityException("quantile " + q + " is outside [0, 1]");
    }
  }
}
