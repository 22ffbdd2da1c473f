package dev.speechscale.chain;

import dev.speechscale.capacity.Percentiles;
import org.jspecify.annotations.Nullable;

/** The p95 and its distribution-free 95 % interval from order statistics. */
final class Percentiles95 {
  private static final double Q = 0.95;
  private static final double Z = 1.959964;

  private Percentiles95() {}

  /** Nearest rank: the ⌈0.95 n⌉-th smallest of sorted {@code v}. */
  static double nearestRank(double[] v) {
    return Percentiles.nearestRank(v, Q);
  }

  /**
   * The ranks l &lt; u with P(X(l) ≤ p95 ≤ X(u)) ≈ 95 % for n samples (binomial, normal
   * approximation: n q ± 1.96 √(n q (1−q))), as values of sorted {@code v}; {@code null} when there
   * are too few samples for the upper rank to exist (n q (1−q) &lt; 1 or u &gt; n).
   */
  static double @Nullable [] interval(double[] v) {
    int n = v.length;
    double sd = Math.sqrt(n * Q * (1 - Q));
    if (n == 0 || sd < 1) {
      return null;
    }
    int l = (int) Math.floor(n * Q - Z * sd);
    int u = (int) Math.ceil(n * Q + Z * sd);
    if (l < 1 || u > n) {
      return null;
    }
    return new double[] {v[l - 1], v[u - 1]};
  }
}
