package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrafficArrivalsTest {

  private static List<Double> drain(Traffic t, long seed) {
    List<Double> out = new ArrayList<>();
    try (Traffic.Arrivals a = t.arrivals(seed)) {
      for (double s = a.nextSeconds(); !Double.isNaN(s); s = a.nextSeconds()) {
        out.add(s);
      }
    }
    return out;
  }

  @Test
  void arrivals_rateTrace_sameSeedSameTimesInsideTheIntervals() {
    Traffic t = Traffic.csv("t.csv", () -> "time_s,rps\n0,20\n5,0\n10,0\n".lines());

    List<Double> first = drain(t, 7);

    assertThat(first).isEqualTo(drain(t, 7)).isNotEqualTo(drain(t, 8));
    assertThat(first).isSorted().allMatch(s -> s >= 0 && s < 5);
    assertThat(first.size()).isBetween(50, 150); // Poisson with mean 100
  }

  @Test
  void arrivals_arrivalTrace_areTheRecordedTimes() {
    Traffic t = Traffic.csv("a.csv", () -> "arrival_s\n0.5\n0.5\n2.25\n".lines());

    assertThat(drain(t, 1)).containsExactly(0.5, 0.5, 2.25);
  }
}
