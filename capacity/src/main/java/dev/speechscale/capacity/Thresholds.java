package dev.speechscale.capacity;

import java.util.Locale;
import java.util.OptionalInt;

/**
 * The two scaling thresholds derived from Q_max and the surge ratio, and the smallest fleet at
 * which scale-in is stable.
 *
 * @param cScaleMax concurrency per instance at which one instance is added, {@code (1 − h)·Q_max}
 * @param cScaleMin concurrency per instance at which one is removed, {@code (1 − 2h)·Q_max}
 * @param minSafeInstances {@code N_safe}; empty when no fleet size makes scale-in stable (h = 0)
 */
public record Thresholds(double cScaleMax, double cScaleMin, OptionalInt minSafeInstances) {

  /** Smallest surge ratio: traffic that cannot grow needs no headroom. */
  public static final double MIN_SURGE_RATIO = 1.0;

  /** Exclusive upper bound: at 1.5 the scale-in threshold reaches zero and never fires. */
  public static final double MAX_SURGE_RATIO_EXCLUSIVE = 1.5;

  /**
   * Derives the thresholds.
   *
   * @throws CapacityException if {@code qMax} is not positive or {@code surgeRatio} is outside [1,
   *     1.5)
   */
  static Thresholds of(double qMax, double surgeRatio) {
    if (!(qMax > 0)) {
      throw new CapacityException(
          "Q_max ("
              + qMax
              + ") must be positive; no rung met the SLO, so there is nothing to scale");
    }
    checkSurgeRatio(surgeRatio);
    double h = surgeRatio - 1.0;
    double cScaleMax = (1.0 - h) * qMax;
    double cScaleMin = (1.0 - 2.0 * h) * qMax;
    return new Thresholds(cScaleMax, cScaleMin, minSafe(cScaleMax, cScaleMin));
  }

  /** Rejects a surge ratio outside [1, 1.5) with a message that says why. */
  static void checkSurgeRatio(double surgeRatio) {
    if (!(surgeRatio >= MIN_SURGE_RATIO && surgeRatio < MAX_SURGE_RATIO_EXCLUSIVE)) {
      throw new CapacityException(
          String.format(
              Locale.ROOT,
              "surge ratio (%s) must be in [1, 1.5): at 1.5 the scale-in threshold (1 - 2h)·Q_max"
                  + " reaches 0 and the policy never scales in; survive larger surges with standing"
                  + " instances or a shorter T_total",
              surgeRatio));
    }
  }

  /**
   * {@code N_safe = max(2, ⌈r/(r − 1)⌉)} for {@code r = C_scale_max / C_scale_min}. The bound is
   * inclusive, and {@code 1 − 2h} is inexact for most h (at h = 0.05 the exact answer 19 lands on
   * 18.999… or 19.000…), so a 1e-9 tolerance keeps an exact N from being pushed to N + 1.
   */
  static OptionalInt minSafe(double cScaleMax, double cScaleMin) {
    if (cScaleMin <= 0 || cScaleMax <= cScaleMin) {
      return OptionalInt.empty();
    }
    double r = cScaleMax / cScaleMin;
    double bound = r / (r - 1.0);
    return OptionalInt.of(Math.max(2, (int) Math.ceil(bound - 1e-9)));
  }
}
