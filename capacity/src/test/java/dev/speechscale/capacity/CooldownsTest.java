package dev.speechscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CooldownsTest {

  @ParameterizedTest(name = "T={0}s -> out {1}s, in {2}s")
  @CsvSource({
    "320.248496,30,960",
    "0,10,300",
    "19.9,10,300",
    "20,10,300",
    "21,10,300",
    "40,20,300",
    "59.9,29,300",
    "60,30,300",
    "100,30,300",
    "100.4,30,301",
    "1000,30,3000"
  })
  void forScaleOutTime_matchesTheFormula(double t, int out, int in) {
    assertThat(Cooldowns.forScaleOutTime(t)).isEqualTo(new Cooldowns(out, in));
  }

  @Test
  void forScaleOutTime_negative_isRefused() {
    assertThatThrownBy(() -> Cooldowns.forScaleOutTime(-1))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("T (-1.0 s)");
  }
}
