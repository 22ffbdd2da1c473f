package dev.speechscale.simulator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The frontier of instance-hours against SLO attainment: the points no other point beats on both
 * (as cheap or cheaper and at least as much attainment, better on one).
 */
public final class Frontier {
  private Frontier() {}

  /**
   * A point to place.
   *
   * @param name what it is
   * @param instanceHours its cost
   * @param attainment its SLO attainment, 0..1
   */
  public record Point(String name, double instanceHours, double attainment) {}

  /** The frontier of {@code points}, cheapest first (ties: the first given). */
  public static List<Point> of(List<Point> points) {
    List<Point> sorted = new ArrayList<>(points);
    sorted.sort(
        Comparator.comparingDouble(Point::instanceHours)
            .thenComparing(Comparator.comparingDouble(Point::attainment).reversed()));
    List<Point> out = new ArrayList<>();
    double best = Double.NEGATIVE_INFINITY;
    for (Point p : sorted) {
      if (p.attainment() > best) {
        out.add(p);
        best = p.attainment();
      }
    }
    return List.copyOf(out);
  }

  /** The cheapest point of {@code frontier} with at least {@code attainment}. */
  public static Optional<Point> cheapestReaching(List<Point> frontier, double attainment) {
    return frontier.stream()
        .filter(p -> p.attainment() >= attainment)
        .min(Comparator.comparingDouble(Point::instanceHours));
  }
}
