package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.simulator.Traffic;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CalibrationTraceTest {

  @Test
  void csv_quietSurgeFall_isATraceTheSimulatorReads() {
    CalibrationTrace t =
        new CalibrationTrace(
            15.28, Duration.ofSeconds(60), Duration.ofSeconds(150), Duration.ofSeconds(150));

    Traffic traffic = Traffic.csv("calibration.csv", () -> t.csv().lines());

    assertThat(t.quietPerSecond()).isEqualTo(4.58);
    assertThat(t.surgePerSecond()).isEqualTo(21.39);
    assertThat(t.surgeStartS()).isEqualTo(60.0);
    assertThat(traffic.durationSeconds()).isEqualTo(360);
    assertThat(traffic.peakPerSecond()).isEqualTo(21.39);
    assertThat(traffic.expectedArrivals())
        .isCloseTo(4.58 * 210 + 21.39 * 150, org.assertj.core.data.Offset.offset(1e-6));
  }

  @Test
  void new_partSecondPeriod_refusedNamingIt() {
    assertThatThrownBy(() ->
            new CalibrationTrace(
                15, Duration.ofMillis(1500), Duration.ofSeconds(1), Duration.ofSeconds(1)))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("PT1.5S", "whole seconds");
  }
}
