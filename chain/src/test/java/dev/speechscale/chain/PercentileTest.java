package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Linear interpolation between closest ranks (numpy's {@code linear}, Hyndman–Fan type 7): rank h =
 * (n − 1)·p/100, value x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋+1 − x⌊h⌋) over the sorted samples.
 */
class PercentileTest {

  @ParameterizedTest
  @ValueSource(doubles = {0, 50, 95, 100})
  void of_oneValue_isThatValueAtAnyP(double p) {
    assertThat(Percentile.of(new double[] {42.5}, p)).isEqualTo(42.5);
  }

  @Test
  void of_p0_isTheSmallest() {
    assertThat(Percentile.of(new double[] {7, 3, 9, 5}, 0)).isEqualTo(3);
  }

  @Test
  void of_p100_isTheLargest() {
    assertThat(Percentile.of(new double[] {7, 3, 9, 5}, 100)).isEqualTo(9);
  }

  @Test
  void of_rankBetweenTwoSamples_interpolatesLinearly() {
    assertThat(Percentile.of(new double[] {1, 2, 3, 4}, 50)).isEqualTo(2.5);
  }

  @Test
  void of_p95OfOneToHundred_isNinetyFivePointZeroFive() {
    double[] values = IntStream.rangeClosed(1, 100).asDoubleStream().toArray();

    assertThat(Percentile.of(values, 95)).isCloseTo(95.05, within(1e-9));
  }

  @Test
  void of_wholeRank_isThatSampleExactly() {
    assertThat(Percentile.of(new double[] {10, 20, 30, 40, 50}, 25)).isEqualTo(20);
  }

  @Test
  void of_unsortedSamples_areSortedWithoutChangingTheCallersArray() {
    double[] values = {50, 10, 40, 20, 30};

    assertThat(Percentile.of(values, 75)).isEqualTo(40);
    assertThat(values).containsExactly(50, 10, 40, 20, 30);
  }

  @Test
  void of_repeatedValues_stayOnThem() {
    assertThat(Percentile.of(new double[] {5, 5, 5, 9}, 50)).isEqualTo(5);
  }

  @Test
  void of_noSamples_isAChainException() {
    assertThatThrownBy(() -> Percentile.of(new double[0], 95))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("no samples");
  }
}
