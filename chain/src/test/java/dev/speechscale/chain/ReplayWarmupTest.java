package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The replay's warm-up N: qmax's 4, held below the deployed target. */
class ReplayWarmupTest {
  @Test
  void warmupConcurrency_targetWellAboveFour_isQmaxsFour() {
    assertThat(Replay.warmupConcurrency(9.753)).isEqualTo(4);
    assertThat(Replay.warmupConcurrency(5.0)).isEqualTo(4);
  }

  @Test
  void warmupConcurrency_lowTarget_staysBelowIt() {
    assertThat(Replay.warmupConcurrency(4.0)).isEqualTo(3);
    assertThat(Replay.warmupConcurrency(2.5)).isEqualTo(2);
    assertThat(Replay.warmupConcurrency(2.0)).isEqualTo(1);
  }

  @Test
  void warmupConcurrency_targetAtOrBelowOne_isOne() {
    assertThat(Replay.warmupConcurrency(1.0)).isEqualTo(1);
    assertThat(Replay.warmupConcurrency(0.5)).isEqualTo(1);
  }
}
