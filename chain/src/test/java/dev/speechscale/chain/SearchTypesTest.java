package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.simulator.Outcome;
import dev.speechscale.simulator.PolicySearch;
import dev.speechscale.simulator.SearchGoal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link SearchTypes#choose}: money, not instance-hours; the goal first; the closest otherwise. */
class SearchTypesTest {
  private static final SearchGoal GOAL = new SearchGoal(0.999, 0.001);

  @SuppressWarnings("NullAway") // choose reads only the held-out day and the price
  private static SearchTypes.Type type(String name, double price, double hours, double slo) {
    Outcome o = new Outcome(hours, slo, 1 - slo, 100, 200, 0, 1, 1);
    PolicySearch.Result r =
        new PolicySearch.Result(
            List.of(),
            Map.of(),
            List.of(),
            List.of(),
            "c1",
            null,
            true,
            List.of(new PolicySearch.Compared("c1", true, "", o, o)),
            null,
            null);
    return new SearchTypes.Type(name, name + ".json", 1, price, "given", "plan", null, "{}", r);
  }

  @Test
  void comparesMoney_notInstanceHours() {
    // big: fewer instance-hours (10) but dearer ($20); small: 30 instance-hours for $15
    List<SearchTypes.Type> types = List.of(type("big", 2.0, 10, 1.0), type("small", 0.5, 30, 1.0));
    assertThat(SearchTypes.choose(types, GOAL)).isEqualTo(1);
    assertThat(types.get(0).cost()).isEqualTo(20.0);
  }

  @Test
  void aTypeThatMissesTheGoalIsNotChosenHoweverCheap() {
    List<SearchTypes.Type> types =
        List.of(type("cheap", 0.1, 10, 0.99), type("dear", 1.0, 10, 0.9995));
    assertThat(SearchTypes.choose(types, GOAL)).isEqualTo(1);
  }

  @Test
  void whenNoneMeetsTheGoal_theClosest() {
    List<SearchTypes.Type> types =
        List.of(type("far", 0.1, 10, 0.95), type("close", 1.0, 10, 0.998));
    assertThat(SearchTypes.choose(types, GOAL)).isEqualTo(1);
    assertThat(SearchTypes.render(types, 1, GOAL))
        .contains("chosen type: close (NO type's recommendation met the goal: the closest");
  }

  @Test
  void aTieKeepsTheOrderGiven() {
    List<SearchTypes.Type> types = List.of(type("a", 1.0, 10, 1.0), type("b", 2.0, 5, 1.0));
    assertThat(SearchTypes.choose(types, GOAL)).isZero();
  }
}
