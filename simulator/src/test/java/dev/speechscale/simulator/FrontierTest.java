package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FrontierTest {
  private static Frontier.Point p(String name, double cost, double attainment) {
    return new Frontier.Point(name, cost, attainment);
  }

  @Test
  void keepsOnlyThePointsNoOtherBeatsOnCostAndAttainment_cheapestFirst() {
    List<Frontier.Point> points =
        List.of(
            p("a", 5000, 0.9996),
            p("b", 4190, 1.0),
            p("c", 4650, 1.0), // dominated by b
            p("d", 207, 0.06),
            p("e", 3000, 0.99),
            p("f", 3500, 0.985)); // dominated by e
    assertThat(Frontier.of(points)).extracting(Frontier.Point::name).containsExactly("d", "e", "b");
  }

  @Test
  void equalCostKeepsTheHigherAttainment_equalPointsTheFirstGiven() {
    assertThat(Frontier.of(List.of(p("x", 10, 0.5), p("y", 10, 0.7), p("z", 10, 0.7))))
        .extracting(Frontier.Point::name)
        .containsExactly("y");
  }

  @Test
  void theCheapestPointReachingAnAttainment() {
    List<Frontier.Point> f =
        Frontier.of(List.of(p("d", 207, 0.06), p("e", 3000, 0.99), p("b", 4190, 1.0)));
    assertThat(Frontier.cheapestReaching(f, 0.9995)).map(Frontier.Point::name).contains("b");
    assertThat(Frontier.cheapestReaching(f, 0.5)).map(Frontier.Point::name).contains("e");
    assertThat(Frontier.cheapestReaching(f, 1.01)).isEmpty();
  }
}
