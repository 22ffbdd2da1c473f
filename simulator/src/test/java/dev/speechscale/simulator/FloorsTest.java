package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FloorsTest {

  private static double[] hours(double... rates) {
    return rates;
  }

  @Test
  void eachHourHoldsTheShareOfItsQuietestMinute_firedTheLeadEarly_equalHoursMerged() {
    double[] low = new double[24];
    Arrays.fill(low, 10); // 10 req/s: ceil(0.5 x 10 / 4) = 2 ... but min 3 wins
    low[8] = 100; // ceil(0.5 x 100 / 4) = 13
    low[9] = 100;
    low[10] = 41; // ceil(0.5 x 41 / 4) = ceil(5.125) = 6
    List<Floors.Floor> floors = Floors.derive(low, 0.5, 4, 330, 3, 50);
    // the lead is kept in whole minutes: 330 s -> 300 s before the hour
    assertThat(floors)
        .containsExactly(
            new Floors.Floor(8 * 3600 - 300, 13),
            new Floors.Floor(10 * 3600 - 300, 6),
            new Floors.Floor(11 * 3600 - 300, 3));
    assertThat(floors.getFirst().at()).isEqualTo("07:55");
    assertThat(Floors.describe(floors)).isEqualTo("07:55 13, 09:55 6, 10:55 3");
  }

  @Test
  void floorsAreClampedToMax_andAnHourAtMidnightWrapsToTheDayBefore() {
    double[] low = new double[24];
    Arrays.fill(low, 0);
    low[0] = 1000; // ceil(1 x 1000 / 10) = 100, clamped to 40
    List<Floors.Floor> floors = Floors.derive(low, 1.0, 10, 600, 1, 40);
    assertThat(floors)
        .containsExactly(new Floors.Floor(3600 - 600, 1), new Floors.Floor(86_400 - 600, 40));
    // in force: the latest action at or before the time, wrapping past midnight
    assertThat(Floors.at(floors, 0, 1)).isEqualTo(40);
    assertThat(Floors.at(floors, 3000, 1)).isEqualTo(1);
    assertThat(Floors.at(floors, 86_000, 1)).isEqualTo(40);
    assertThat(Floors.at(floors, 85_000, 1)).isEqualTo(1);
  }

  @Test
  void noFloorsWhenTheFractionIsZeroOrEveryHourIsAtMin() {
    double[] low = new double[24];
    Arrays.fill(low, 50);
    assertThat(Floors.derive(low, 0, 10, 0, 1, 100)).isEmpty();
    assertThat(Floors.derive(low, 1.0, 100, 0, 1, 100)).isEmpty(); // ceil(0.5) = 1 = min
    // one floor all day, above min: one action at midnight
    assertThat(Floors.derive(low, 1.0, 10, 0, 1, 100)).containsExactly(new Floors.Floor(0, 5));
  }

  @Test
  void anHourTheTraceNeverReachesKeepsTheFloorBefore() {
    double[] low = new double[24];
    Arrays.fill(low, Double.NaN);
    low[0] = 20;
    low[1] = 40;
    // hours 2..23 keep hour 1's 4; hour 0 (2) differs from hour 23 (4)
    assertThat(Floors.derive(low, 1.0, 10, 0, 1, 10))
        .containsExactly(new Floors.Floor(0, 2), new Floors.Floor(3600, 4));
  }

  @Test
  void refusesBadInputNamingTheValue() {
    assertThatThrownBy(() -> Floors.derive(hours(1, 2), 0.5, 1, 0, 1, 2))
        .hasMessageContaining("24 hourly rates, not 2");
    assertThatThrownBy(() -> Floors.derive(new double[24], 1.5, 1, 0, 1, 2))
        .hasMessageContaining("(1.5)");
    assertThatThrownBy(() -> new Floors.Floor(86_400, 1)).hasMessageContaining("86400");
  }
}
