package dev.speechscale.artifacts;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

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

  public static Histogram decode(String encoded) {
    try {
      return Histogram.decodeFromCompressedByteBuffer(
          ByteBuffer.wrap(Base64.getDecoder().decode(encoded)), 0);
    } catch (DataFormatException | IllegalArgumentException e) {
      throw new ArtifactException("not an encoded HdrHistogram: " + e.getMessage(), e);
    }
  }

  /** {@code n} equally likely values in seconds: the value at probability (i + 0.5)/n. */
  public static double[] quantilesSeconds(Histogram h, int n) {
    if (h.getTotalCount() == 0) {
      throw new ArtifactException("the latency histogram is empty");
    }
    double[] q = new double[n];
    for (int i = 0; i < n; i++) {
      q[i] = Math.max(1, h.getValueAtPercentile(100.0 * (i + 0.5) / n)) / 1e6;
    }
    return q;
  }
}
