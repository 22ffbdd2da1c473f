package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrafficTest {

  private static Traffic csv(String... lines) {
    return Traffic.csv("trace.csv", () -> List.of(lines).stream());
  }

  private static List<Double> arrivals(Traffic t, long seed) {
    List<Double> out = new ArrayList<>();
    try (Traffic.ArrivalStream s = t.open(seed)) {
      for (double a = s.next(); !Double.isNaN(a); a = s.next()) {
        out.add(a);
      }
    }
    return out;
  }

  @Test
  void csv_badLines_namesFileLineAndValueOfEach() {
    assertThatThrownBy(() -> csv("time_s,rps", "0,10", "60,abc", "30,5", "20,5", "120,-1", "180,0"))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("trace.csv has 3 bad lines")
        .hasMessageContaining("trace.csv line 3: 'abc': rps is not a number")
        .hasMessageContaining(
            "trace.csv line 5: '20,5': time_s must increase (the previous row starts at 30.0 s)")
        .hasMessageContaining("trace.csv line 6: '120,-1': rps must be at least 0");
  }

  @Test
  void csv_arrivalsGoingBack_namesTheLine() {
    assertThatThrownBy(() -> csv("arrival_s", "0.5", "1.5", "1.0"))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("trace.csv line 4: '1.0': arrival times must not decrease");
  }

  @Test
  void csv_unknownHeader_namesBothFormats() {
    assertThatThrownBy(() -> csv("t,rate", "0,1"))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("trace.csv line 1: header 't,rate'")
        .hasMessageContaining("'time_s,rps'")
        .hasMessageContaining("'arrival_s'");
  }

  @Test
  void csv_manyBadLines_showsTenAndCountsTheRest() {
    List<String> lines = new ArrayList<>(List.of("arrival_s"));
    for (int i = 0; i < 13; i++) {
      lines.add("x" + i);
    }
    assertThatThrownBy(() -> Traffic.csv("big.csv", lines::stream))
        .hasMessageContaining("big.csv has 13 bad lines")
        .hasMessageContaining("... and 3 more bad lines");
  }

  @Test
  void csv_rateTraceWithOneRow_isRefused() {
    assertThatThrownBy(() -> csv("time_s,rps", "0,10"))
        .hasMessageContaining("a rate trace needs at least two");
  }

  @Test
  void csv_arrivalTrace_replaysExactlyTheRecordedTimes() {
    Traffic t = csv("arrival_s", "0.25", "# a comment", "", "1.5", "1.5", "3.0");

    assertThat(arrivals(t, 1)).containsExactly(0.25, 1.5, 1.5, 3.0);
    assertThat(t.durationSeconds()).isEqualTo(4);
    assertThat(t.peakPerSecond()).isEqualTo(2);
  }

  @Test
  void csv_rateTrace_generatesPoissonCountsPerInterval() {
    Traffic t = csv("time_s,rps", "0,100", "100,0", "200,50", "300,0");

    List<Double> a = arrivals(t, 7);

    assertThat(t.durationSeconds()).isEqualTo(300);
    assertThat(t.expectedArrivals()).isEqualTo(15_000);
    long first = a.stream().filter(x -> x < 100).count();
    long silent = a.stream().filter(x -> x >= 100 && x < 200).count();
    long third = a.stream().filter(x -> x >= 200).count();
    assertThat(silent).isZero();
    assertThat((double) first).isCloseTo(10_000, within(300.0)); // 3 sd
    assertThat((double) third).isCloseTo(5_000, within(215.0));
    assertThat(a).isSorted();
  }

  @Test
  void open_sameSeed_givesTheSameArrivals() {
    Traffic t = Traffic.diurnal(50, 5, Duration.ofMinutes(10));

    assertThat(arrivals(t, 3)).isEqualTo(arrivals(t, 3)).isNotEqualTo(arrivals(t, 4));
  }

  @Test
  void diurnal_peaksAtNoon_andIntegratesToTheMeanRate() {
    Traffic t = Traffic.diurnal(5000, 10, Duration.ofHours(24));

    // mean of trough + (peak − trough)(1 − cos)/2 over a day = (peak + trough)/2
    assertThat(t.expectedArrivals()).isCloseTo(2505.0 * 86_400, within(1.0));
    assertThat(t.shapeRateAt(43_200)).isCloseTo(5000, within(0.01));
    assertThat(t.shapeRateAt(0)).isCloseTo(10, within(0.01));
  }

  @Test
  void step_isTroughPeakTrough() {
    Traffic t = Traffic.step(30, 3, Duration.ofSeconds(90));

    assertThat(t.shapeRateAt(29)).isEqualTo(3);
    assertThat(t.shapeRateAt(30)).isEqualTo(30);
    assertThat(t.shapeRateAt(59)).isEqualTo(30);
    assertThat(t.shapeRateAt(60)).isEqualTo(3);
  }

  @Test
  void shapes_troughAbovePeak_isRefused() {
    assertThatThrownBy(() -> Traffic.ramp(5, 10, Duration.ofMinutes(1)))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining(
            "--trough-rps (10.0) must be at least 0 and at most --peak-rps (5.0)");
  }

  @Test
  void shapes_fractionalDuration_isRefused() {
    assertThatThrownBy(() -> Traffic.spike(5, 1, Duration.ofMillis(1500)))
        .hasMessageContaining("--duration (PT1.5S) must be a whole number of seconds");
  }
}
