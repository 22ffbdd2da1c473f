package dev.speechscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RungDriftTest {

  private static RungDrift drift(double firstRps, double againRps, double firstP95, Double again) {
    return new RungDrift(
        16, "at the end of run 1", 185, firstRps, againRps, firstP95, again, 10, 15);
  }

  @Test
  void changes_issue15Example_areRelativeToTheFirstMeasurement() {
    // issue 15: throughput fell from 15.2 to 12.4 req/s between rungs measured early and late
    RungDrift d = drift(15.2, 12.4, 1038, 1241.0);

    assertThat(d.throughputChangePct()).isCloseTo(-18.421, within(1e-3));
    assertThat(d.p95ChangePct()).isCloseTo(19.557, within(1e-3));
    assertThat(d.throughputBeyond()).isTrue();
    assertThat(d.p95Beyond()).isTrue();
    assertThat(d.beyond()).isTrue();
  }

  @Test
  void beyond_quietMachineNoise_isWithinTolerance() {
    // the recorded quickstart's N=16: 21.2 req/s, p95 759 ms; a re-measurement 4 % and 6 % off
    RungDrift d = drift(21.2, 20.352, 759, 804.54);

    assertThat(d.beyond()).isFalse();
  }

  @ParameterizedTest(name = "throughput {0} -> {1}: beyond {2}")
  @CsvSource({"20,22,false", "20,22.01,true", "20,18,false", "20,17.99,true"})
  void throughputBeyond_exactlyTheTolerance_isStillNoise(
      double first, double again, boolean beyond) {
    assertThat(drift(first, again, 100, 100.0).throughputBeyond()).isEqualTo(beyond);
  }

  @ParameterizedTest(name = "p95 {0} -> {1}: beyond {2}")
  @CsvSource({"1000,1150,false", "1000,1150.1,true", "1000,850,false", "1000,849.9,true"})
  void p95Beyond_eitherDirection_countsAsDrift(double first, double again, boolean beyond) {
    RungDrift d = drift(10, 10, first, again);

    assertThat(d.p95Beyond()).isEqualTo(beyond);
    assertThat(d.beyond()).isEqualTo(beyond);
  }

  @Test
  void beyond_nothingCompletedTheSecondTime_isDriftInBoth() {
    RungDrift d = drift(15.2, 0, 1038, null);

    assertThat(d.throughputChangePct()).isEqualTo(-100.0);
    assertThat(d.p95ChangePct()).isNull();
    assertThat(d.p95Beyond()).isTrue();
    assertThat(d.describe()).contains("none (nothing completed)");
  }

  @Test
  void describe_namesRungWhenAndBothFiguresWithTheirTolerances() {
    assertThat(drift(15.2, 12.4, 1038, 1241.0).describe())
        .isEqualTo(
            "N=16 re-measured at the end of run 1, 3m05s after its first measurement: throughput"
                + " 15.2 -> 12.4 req/s (-18.4 %, tolerance 10 %), p95 TTFAB 1038 -> 1241 ms"
                + " (+19.6 %, tolerance 15 %)");
  }

  @Test
  void constructor_referenceThatCompletedNothing_isRefusedNamingIt() {
    assertThatThrownBy(() -> drift(0, 10, 100, 100.0))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("N=16's first measurement")
        .hasMessageContaining("only a rung that completed requests can be a reference");
  }

  @Test
  void constructor_zeroTolerance_isRefused() {
    assertThatThrownBy(() -> new RungDrift(4, "at the end of run 1", 0, 10, 10, 100, 100.0, 0, 15))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("must be positive percentages");
  }
}
