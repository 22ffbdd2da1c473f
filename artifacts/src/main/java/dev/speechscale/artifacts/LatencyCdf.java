package dev.speechscale.artifacts;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * A recorded latency histogram as a cumulative distribution: the value at each of a fixed set of
 * cumulative fractions, from the fastest request to the slowest. What the report draws one line of
 * per rung; read from the whole stored histogram, so the tail is what was recorded, not an average
 * of percentiles.
 *
 * @param count requests in the histogram
 * @param points the value at each of {@link #FRACTIONS}, in order; empty when {@code count} is 0
 */
public record LatencyCdf(long count, List<Point> points) {
  /**
   * The cumulative fractions a CDF is read at: every 2 % up to 98 %, then 99, 99.5 and 99.9 % and
   * the maximum, so the tail where SLOs are judged is drawn finer than the body.
   */
  public static final List<Double> FRACTIONS = fractions();

  public LatencyCdf {
    points = List.copyOf(points);
  }

  /**
   * One point of the distribution.
   *
   * @param valueMs the latency, milliseconds (the highest value of its HdrHistogram bucket)
   * @param fraction the share of requests at or below it, in [0, 1]
   */
  public record Point(double valueMs, double fraction) {}

  /**
   * The CDF of an encoded microsecond histogram (a qmax step's {@code ttfab_histogram}).
   *
   * @throws ArtifactException when {@code encoded} is not an encoded histogram
   */
  public static LatencyCdf ofMicros(String encoded) {
    Histogram h = Histograms.decode(encoded);
    long count = h.getTotalCount();
    if (count == 0) {
      return new LatencyCdf(0, List.of());
    }
    List<Point> points = new ArrayList<>(FRACTIONS.size());
    for (double f : FRACTIONS) {
      long us = f == 0 ? h.getMinValue() : h.getValueAtPercentile(100 * f);
      points.add(new Point(us / 1000.0, f));
    }
    return new LatencyCdf(count, points);
  }

  private static List<Double> fractions() {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i <= 49; i++) {
      out.add(i / 50.0);
    }
    out.addAll(List.of(0.99, 0.995, 0.999, 1.0));
    return List.copyOf(out);
  }
}
