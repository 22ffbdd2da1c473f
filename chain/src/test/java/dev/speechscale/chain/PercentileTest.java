package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The chain's adapter over {@link dev.speechscale.capacity.Percentiles#linearAtQuantile}: it sorts
 * a copy of raw samples and speaks ChainException. The rule itself is hand-worked in capacity's
 * PercentilesTest.
 */
class PercentileTest {

  @Test
  void of_unsortedSamples_areSortedWithoutChangingTheCallersArray() {
    double[] values = {50, 10, 40, 20, 30};

    assertThat(Percentile.of(values, 75)).isEqualTo(40);
    assertThat(values).containsExactly(50, 10, 40, 20, 30);
  }

  @Test
  void of_percentile_isTakenAsTheQuantilePOverHundred() {
    // h = 0.95 × 3 = 2.8499999999999996 (not 2.85): the chain's rounding, kept bit for bit
    assertThat(Percentile.of(new double[] {100, 0, 0, 0}, 95)).isEqualTo((0.95 * 3 - 2) * 100);
  }

  @Test
  void of_noSamples_isAChainException() {
    assertThatThrownBy(() -> Percentile.of(new double[0], 95))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("no samples");
  }
}
