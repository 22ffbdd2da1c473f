package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LadderSpecTest {
  @Test
  void of_unsortedDuplicateRungs_sortedAndDistinct() {
    LadderSpec spec =
        LadderSpec.of(List.of(10, 1, 5, 10), Duration.ofSeconds(2), Duration.ofSeconds(1), 1, 100);

    assertThat(spec.rungs()).containsExactly(1, 5, 10);
    assertThat(spec.refine()).isTrue();
    assertThat(spec.saturatedToStop()).isEqualTo(2);
  }

  @Test
  void of_windowLongerThanHold_refusedWithTheFix() {
    assertThatThrownBy(
            () -> LadderSpec.of(List.of(1), Duration.ofSeconds(5), Duration.ofSeconds(30), 1, 100))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("hold (PT5S) must be at least window (PT30S)")
        .hasMessageContaining("shorten the window");
  }

  @Test
  void withWarmup_negative_refusedNamingTheValueAndTheFix() {
    LadderSpec spec =
        LadderSpec.of(List.of(1), Duration.ofSeconds(2), Duration.ofSeconds(1), 1, 100);
    assertThatThrownBy(() -> spec.withWarmup(Duration.ofSeconds(-1)))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("warm-up (PT-1S) must not be negative")
        .hasMessageContaining("0s for no warm-up");
  }

  @Test
  void of_zeroRung_refused() {
    assertThatThrownBy(() ->
            LadderSpec.of(List.of(0, 5), Duration.ofSeconds(2), Duration.ofSeconds(1), 1, 100))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("rung concurrency (0)");
  }

  @Test
  void of_noRungs_refused() {
    assertThatThrownBy(
            () -> LadderSpec.of(List.of(), Duration.ofSeconds(2), Duration.ofSeconds(1), 1, 100))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("no rungs");
  }

  @Test
  void of_zeroSlo_refused() {
    assertThatThrownBy(
            () -> LadderSpec.of(List.of(1), Duration.ofSeconds(2), Duration.ofSeconds(1), 1, 0))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("SLO (0.0 ms)");
  }

  @Test
  void log2Ceil_bisectionRungsForAGap() {
    assertThat(LadderRunner.log2Ceil(1)).isZero();
    assertThat(LadderRunner.log2Ceil(2)).isEqualTo(1);
    assertThat(LadderRunner.log2Ceil(10)).isEqualTo(4);
    assertThat(LadderRunner.log2Ceil(16)).isEqualTo(4);
  }
}
