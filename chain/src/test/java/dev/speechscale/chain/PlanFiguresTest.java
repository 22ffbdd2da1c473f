package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PlanFiguresTest {

  @Test
  void required_figurePresent_isItsValue() {
    assertThat(PlanFigures.required(12.5, "scaling_target_value", "plan-m.json")).isEqualTo(12.5);
  }

  @Test
  void required_figureAbsent_refusesNamingTheFileAndTheField() {
    assertThatThrownBy(
            () -> PlanFigures.required(null, "throughput_at_c_scale_max_rps", "plan-m.json"))
        .isInstanceOf(ChainException.class)
        .hasMessageStartingWith("plan-m.json carries no throughput_at_c_scale_max_rps")
        .hasMessageContaining("re-run `tts-bench plan`");
  }
}
