package dev.speechscale.loadgen;

import java.util.List;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * Whether consecutive measurement windows of a rung agree: pure arithmetic, no clock.
 *
 * <p>A set of windows agrees within P % when every window's throughput lies within P % of the
 * windows' mean throughput, and every window's p95 TTFAB within P % of their mean p95: {@code max
 * |x_i − mean| ≤ P/100 × mean} for both. The spread of a figure is that largest distance in percent
 * of the mean. A window that completed nothing successfully has no p95 and agrees with nothing;
 * neither do windows whose mean throughput or p95 is zero (no relative spread exists).
 *
 * @param throughputSpreadPct the throughputs' spread, {@code NaN} when it does not exist
 * @param p95SpreadPct the p95s' spread, {@code NaN} when it does not exist
 */
record WindowAgreement(double throughputSpreadPct, double p95SpreadPct) {

  /** One window's figures. */
  record Figures(double achievedRps, @Nullable Double ttfabP95Ms) {}

  /** The spreads of {@code windows} (at least one). */
  static WindowAgreement of(List<Figures> windows) {
    if (windows.isEmpty()) {
      throw new LoadgenException("no windows to compare; give at least one");
    }
    double[] rps = new double[windows.size()];
    double[] p95 = new double[windows.size()];
    for (int i = 0; i < rps.length; i++) {
      Figures w = windows.get(i);
      rps[i] = w.achievedRps();
      p95[i] = w.ttfabP95Ms() == null ? Double.NaN : w.ttfabP95Ms();
    }
    return new WindowAgreement(spreadPct(rps), spreadPct(p95));
  }

  /** Whether both spreads exist and are at most {@code percent}. */
  boolean within(double percent) {
    return throughputSpreadPct <= percent && p95SpreadPct <= percent;
  }

  /**
   * The first index {@code i} such that windows {@code i − k + 1 … i} agree within {@code percent},
   * or empty when no {@code k} consecutive windows do.
   */
  static OptionalInt firstAgreeing(List<Figures> windows, int k, double percent) {
    for (int end = k; end <= windows.size(); end++) {
      if (of(windows.subList(end - k, end)).within(percent)) {
        return OptionalInt.of(end - 1);
      }
    }
    return OptionalInt.empty();
  }

  /** max |x − mean| / mean × 100; NaN when a value is missing or the mean is not positive. */
  static double spreadPct(double[] values) {
    double sum = 0;
    for (double v : values) {
      if (Double.isNaN(v)) {
        return Double.NaN;
      }
      sum += v;
    }
    double mean = sum / values.length;
    if (!(mean > 0)) {
      return Double.NaN;
    }
    double worst = 0;
    for (double v : values) {
      worst = Math.max(worst, Math.abs(v - mean));
    }
    return 100 * worst / mean;
  }
}
