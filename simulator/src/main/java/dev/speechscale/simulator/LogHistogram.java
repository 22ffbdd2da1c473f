package dev.speechscale.simulator;

import java.util.Arrays;

/**
 * A fixed log-bucket histogram of microseconds: exact below 128 µs, then 64 linear sub-buckets per
 * power of two, so a recorded value is known to within 1/64 (1.6 %) of itself and reported at its
 * bucket's midpoint (within 0.8 %). Covers up to 2^40 µs (12.7 days) in 2,304 counters; larger
 * values land in the last bucket. No allocation per value, and merging is adding counters.
 *
 * <p>HdrHistogram does the same job in the measuring modules; this pure module keeps its own
 * because it may depend on the JDK only.
 */
final class LogHistogram {
  private static final int SUB_BITS = 6;
  private static final int EXACT = 1 << (SUB_BITS + 1);
  private static final int MAX_EXPONENT = 40;
  static final int BUCKETS = ((MAX_EXPONENT - SUB_BITS) << SUB_BITS) + EXACT;

  private final long[] counts = new long[BUCKETS];
  private long total;

  static int index(long micros) {
    if (micros < EXACT) {
      return (int) Math.max(0, micros);
    }
    int exponent = 63 - Long.numberOfLeadingZeros(micros);
    if (exponent >= MAX_EXPONENT) {
      return BUCKETS - 1;
    }
    int shift = exponent - SUB_BITS;
    return (int) ((shift << SUB_BITS) + (micros >>> shift));
  }

  /** The midpoint of bucket {@code index}, in microseconds. */
  static double midpointMicros(int index) {
    if (index < EXACT) {
      return index;
    }
    int shift = (index >>> SUB_BITS) - 1;
    long sub = index - ((long) shift << SUB_BITS);
    return (sub << shift) + ((1L << shift) - 1) / 2.0;
  }

  void recordIndex(int index) {
    counts[index]++;
    total++;
  }

  void record(long micros) {
    recordIndex(index(micros));
  }

  long total() {
    return total;
  }

  /** Adds {@code other}'s counts to this one. */
  void add(LogHistogram other) {
    for (int i = 0; i < BUCKETS; i++) {
      counts[i] += other.counts[i];
    }
    total += other.total;
  }

  void clear() {
    Arrays.fill(counts, 0);
    total = 0;
  }

  /**
   * The value at quantile {@code q} in milliseconds, by nearest rank (the smallest recorded value
   * with at least {@code ceil(q·n)} values at or below it); NaN when empty.
   */
  double quantileMs(double q) {
    if (total == 0) {
      return Double.NaN;
    }
    long rank = Math.max(1, (long) Math.ceil(q * total));
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return midpointMicros(i) / 1000.0;
      }
    }
    return midpointMicros(BUCKETS - 1) / 1000.0;
  }
}
