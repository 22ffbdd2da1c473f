package dev.speechscale.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GateConfigTest {

  @Test
  void constructor_negativeMaxInFlight_namesFieldAndFix() {
    assertThatThrownBy(() -> GateConfig.of(-1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxInFlight (-1)")
        .hasMessageContaining("use 0 to disable");
  }

  @Test
  void constructor_zeroSlots_namesField() {
    assertThatThrownBy(() -> GateConfig.of(5, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("executionSlots (0)");
  }

  @Test
  void constructor_negativeEstimate_namesField() {
    assertThatThrownBy(() -> new GateConfig(5, 1, Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("initialFirstByteEstimate");
  }

  @Test
  void unbounded_zero_isTrue() {
    assertThat(GateConfig.of(0, 1).unbounded()).isTrue();
    assertThat(GateConfig.of(1, 1).unbounded()).isFalse();
  }
}
