package dev.speechscale.artifacts;

import dev.speechscale.capacity.Percentiles;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.jspecify.annotations.Nullable;

/**
 * HdrHistogram in artifacts: values in microseconds, stored as base64 of the compressed encoding,
 * so a reader can merge rungs by adding histograms instead of averaging percentiles.
 */
public final class Histograms {
  /** Highest trackable value: one hour in microseconds. */
  public static final long HIGHEST_US = 3_600_000_000L;

  /** Three significant digits: 0.1% value resolution. */
  public static final int SIGNIFICANT_DIGITS = 3;

  private Histograms() {}

  /** A new recording histogram in microseconds. */
  public static Histogram newMicros() {
    return new Histogram(1, HIGHEST_US, SIGNIFICANT_DIGITS);
  }

  public static String encode(Histogram h) {
    ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int n = h.encodeIntoCompressedByteBuffer(buffer);
    byte[] bytes = new byte[n];
    buffer.flip();
    buffer.get(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }

  /**
   * An encoded microsecond histogram with every recorded value times {@code factor} (each value
   * bucket moved, its count kept), re-encoded; {@code null} stays {@code null}.
   */
  public static @Nullable String scaled(@Nullable String encoded, double factor) {
    if (encoded == null) {
      return null;
    }
    Histogram in = decode(encoded);
    Histogram out = newMicros();
    for (org.HdrHistogram.HistogramIterationValue v : in.recordedValues()) {
      long scaled = Math.max(1, Math.min(HIGHEST_US, Math.round(v.getValueIteratedTo() * factor)));
      out.recordValueWithCount(scaled, v.getCountAtValueIteratedTo());
    }
    return encode(out);
  }

  public static Histogram decode(String encoded) {
    try {
      return Histogram.decodeFromCompressedByteBuffer(
          ByteBuffer.wrap(Base64.getDecoder().decode(encoded)), 0);
    } catch (DataFormatException | IllegalArgumentException e) {
      throw new ArtifactException("not an encoded HdrHistogram: " + e.getMessage(), e);
    }
  }

  /** {@code n} equally likely values in seconds: the value at probability (i + 0.5)/n. */
  static double[] quantilesSeconds(Histogram h, int n) {
    if (h.getTotalCount() == 0) {
      throw new ArtifactException("the latency histogram is empty");
    }
    double[] q = new double[n];
    for (int i = 0; i < n; i++) {
      q[i] = Math.max(1, h.getValueAtPercentile(100.0 * (i + 0.5) / n)) / 1e6;
    }
    return q;
  }

  /**
   * Records nanoseconds into a microsecond histogram ({@link #newMicros()}), rounded, at least 1.
   */
  public static void recordNanos(Histogram micros, long nanos) {
    long us = Math.max(1, Math.min(HIGHEST_US, (nanos + 500) / 1000));
    micros.recordValue(us);
  }

  /**
   * The p-th percentile of a histogram's values (in the histogram's unit) by {@link
   * Percentiles#linear(long[], double)}'s rule, for runs merged by adding histograms: each rank's
   * value is the middle of its HdrHistogram bucket, so the figure agrees with the raw samples' to
   * the histogram's resolution (3 significant digits, 0.1%).
   *
   * @throws dev.speechscale.capacity.CapacityException when the histogram is empty or p is outside
   *     [0, 100]
   */
  static double linearPercentile(Histogram histogram, double p) {
    double h = Percentiles.linearRank(histogram.getTotalCount(), p);
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
}
