package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The held-out split's arithmetic: a counted, scaled and shifted day. */
class RateTableTest {

  @Test
  void anArrivalTraceIsCountedExactlyPerMinute() {
    Traffic t =
        Traffic.csv(
            "t.csv",
            () -> java.util.stream.Stream.of("arrival_s", "0.5", "59.9", "60", "61", "150"));
    RateTable r = RateTable.count(t, 1);
    // 151 s (the trace runs to the end of its last arrival's second): minutes of 60, 60 and 31 s
    assertThat(r.durationSeconds()).isEqualTo(151);
    assertThat(r.perSecond()).containsExactly(2 / 60.0, 2 / 60.0, 1 / 31.0);
  }

  @Test
  void aShapeIsCountedWithinPoissonNoise() {
    RateTable r = RateTable.count(Traffic.constant(500, Duration.ofMinutes(10)), 7);
    for (double rate : r.perSecond()) {
      assertThat(rate).isBetween(500 * 0.97, 500 * 1.03); // 30 000 a minute: sd 0.6 %
    }
  }

  @Test
  void theShiftedDayRunsTheSameShapeLater_wrapping() {
    RateTable r = new RateTable(new double[] {1, 2, 3, 4}, 240);
    assertThat(r.shifted(60).perSecond()).containsExactly(4, 1, 2, 3);
    assertThat(r.shifted(-120).perSecond()).containsExactly(3, 4, 1, 2);
    assertThat(r.shifted(240)).isEqualTo(r);
    assertThat(r.scaled(0.5).perSecond()).containsExactly(0.5, 1, 1.5, 2);
    assertThatThrownBy(() -> r.shifted(90))
        .hasMessageContaining("(90 s) must be a whole number of minutes");
  }

  @Test
  void theHourlyLowestIsTheQuietestMinuteOfEachHourOfTheDay() {
    double[] rates = new double[60 * 26]; // 26 h: hours 0 and 1 are seen twice
    for (int m = 0; m < rates.length; m++) {
      rates[m] = 100 + m % 60 + (m / 60) * 1000;
    }
    double[] low = new RateTable(rates, rates.length * 60L).hourlyLowest();
    assertThat(low[0]).isEqualTo(100); // day 1 hour 0, not day 2's 24 100
    assertThat(low[1]).isEqualTo(1100);
    assertThat(low[23]).isEqualTo(23_100);
    RateTable hour = new RateTable(new double[] {5, 3, 9}, 180);
    assertThat(hour.hourlyLowest()[0]).isEqualTo(3);
    assertThat(hour.hourlyLowest()[1]).isNaN();
  }

  @Test
  void asTrafficItKeepsTheRatesAndTheLength() {
    RateTable r = new RateTable(new double[] {10, 0, 20}, 150);
    Traffic t = r.traffic("table");
    assertThat(t.durationSeconds()).isEqualTo(150);
    assertThat(t.expectedArrivals())
        .isEqualTo(10 * 60 + 0 + 20 * 30, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(r.digest())
        .isEqualTo(new RateTable(new double[] {10, 0, 20}, 150).digest())
        .hasSize(64);
    assertThat(r.digest()).isNotEqualTo(r.shifted(0).scaled(2).digest());
  }
}
