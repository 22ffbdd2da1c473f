package dev.speechscale.capacity;

import java.util.Comparator;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Throughput X (ok completions per second) against held concurrency, interpolated linearly between
 * measured points and held flat beyond the ends (a closed-loop ladder that stops at saturation has
 * no evidence that throughput grows further).
 */
public final class ThroughputCurve {
  private final List<Point> points;

  /**
   * One measured point.
   *
   * @param concurrency held client concurrency
   * @param perSecond ok completions per second
   */
  public record Point(double concurrency, double perSecond) {}

  public ThroughputCurve(List<Point> points) {
    this.points = points.stream().sorted(Comparator.comparingDouble(Point::concurrency)).toList();
  }

  public boolean isEmpty() {
    return points.isEmpty();
  }

  public List<Point> points() {
    return points;
  }

  /** X at {@code concurrency}; empty when nothing was measured. */
  public OptionalDouble at(double concurrency) {
    if (points.isEmpty()) {
      return OptionalDouble.empty();
    }
    Point first = points.getFirst();
    Point last = points.getLast();
    if (concurrency <= first.concurrency()) {
      return OptionalDouble.of(first.perSecond());
    }
    if (concurrency >= last.concurrency()) {
      return OptionalDouble.of(last.perSecond());
    }
    for (int i = 1; i < points.size(); i++) {
      Point hi = points.get(i);
      if (concurrency <= hi.concurrency()) {
        Point lo = points.get(i - 1);
        double f = (concurrency - lo.concurrency()) / (hi.concurrency() - lo.concurrency());
        return OptionalDouble.of(lo.perSecond() + f * (hi.perSecond() - lo.perSecond()));
      }
    }
    return OptionalDouble.of(last.perSecond());
  }

  /** Whether {@code concurrency} lies outside the measured range. */
  public boolean extrapolates(double concurrency) {
    return !points.isEmpty()
        && (concurrency < points.getFirst().concurrency()
            || concurrency > points.getLast().concurrency());
  }

  /** The highest measured throughput: one instance's capacity. */
  public OptionalDouble peak() {
    return points.stream().mapToDouble(Point::perSecond).max();
  }
}
