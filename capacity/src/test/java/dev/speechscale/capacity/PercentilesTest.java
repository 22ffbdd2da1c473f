package dev.speechscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Hand-worked values for both definitions; the arithmetic is written out beside each case. */
class PercentilesTest {

  @Test
  void linear_evenCount_interpolatesTheMedian() {
    // h = 3 × 50/100 = 1.5: x1 + 0.5 × (x2 − x1) = 2 + 0.5
    assertThat(Percentiles.linear(new long[] {1, 2, 3, 4}, 50)).isEqualTo(2.5);
  }

  @Test
  void linear_oneToHundred_p95IsBetweenRanks() {
    long[] values = LongStream.rangeClosed(1, 100).toArray();

    // h = 99 × 0.95 = 94.05: x94 + 0.05 × (x95 − x94) = 95 + 0.05
    assertThat(Percentiles.linear(values, 95)).isCloseTo(95.05, within(1e-9));
    // h = 99 × 0.99 = 98.01: 99 + 0.01
    assertThat(Percentiles.linear(values, 99)).isCloseTo(99.01, within(1e-9));
  }

  @Test
  void linear_extremes_areMinAndMax() {
    long[] values = {3, 7, 11};

    assertThat(Percentiles.linear(values, 0)).isEqualTo(3);
    assertThat(Percentiles.linear(values, 100)).isEqualTo(11);
  }

  @Test
  void linear_oneValue_isThatValue() {
    assertThat(Percentiles.linear(new long[] {42}, 95)).isEqualTo(42);
  }

  @Test
  void linear_wholeRank_isThatValueExactly() {
    // h = 4 × 25/100 = 1
    assertThat(Percentiles.linear(new long[] {10, 20, 30, 40, 50}, 25)).isEqualTo(20);
  }

  @Test
  void linear_noValues_refusedNamingTheRule() {
    assertThatThrownBy(() -> Percentiles.linear(new long[0], 50))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("no values");
  }

  @Test
  void linearRank_isNMinusOneTimesPOverHundred() {
    assertThat(Percentiles.linearRank(4, 50)).isEqualTo(1.5);
    assertThat(Percentiles.linearRank(4, 95)).isEqualTo(2.85);
    assertThat(Percentiles.linearRank(1, 95)).isEqualTo(0);
  }

  @ParameterizedTest
  @ValueSource(doubles = {0, 50, 95, 100})
  void linearAtQuantile_oneValue_isThatValueAtAnyQ(double p) {
    assertThat(Percentiles.linearAtQuantile(new double[] {42.5}, p / 100)).isEqualTo(42.5);
  }

  @Test
  void linearAtQuantile_extremes_areMinAndMax() {
    double[] sorted = {3, 5, 7, 9};

    assertThat(Percentiles.linearAtQuantile(sorted, 0)).isEqualTo(3);
    assertThat(Percentiles.linearAtQuantile(sorted, 1)).isEqualTo(9);
  }

  @Test
  void linearAtQuantile_rankBetweenTwoValues_interpolatesLinearly() {
    // h = 0.5 × 3 = 1.5
    assertThat(Percentiles.linearAtQuantile(new double[] {1, 2, 3, 4}, 0.5)).isEqualTo(2.5);
    // h = 0.75 × 4 = 3: x3 exactly
    assertThat(Percentiles.linearAtQuantile(new double[] {10, 20, 30, 40, 50}, 0.75)).isEqualTo(40);
  }

  @Test
  void linearAtQuantile_p95OfOneToHundred_isNinetyFivePointZeroFive() {
    double[] values = IntStream.rangeClosed(1, 100).asDoubleStream().toArray();

    assertThat(Percentiles.linearAtQuantile(values, 0.95)).isCloseTo(95.05, within(1e-9));
  }

  @Test
  void linearAtQuantile_repeatedValues_stayOnThem() {
    assertThat(Percentiles.linearAtQuantile(new double[] {5, 5, 5, 9}, 0.5)).isEqualTo(5);
  }

  @Test
  void linearAtQuantile_rankRoundsAsQTimesNMinusOne_notAsThePercentForm() {
    // q·(n − 1) = 0.95 × 3 is 2.8499999999999996 in binary, while (n − 1)·95/100 rounds once to
    // 2.85: the two entry points keep their callers' exact bits
    double quantileForm = Percentiles.linearAtQuantile(new double[] {0, 0, 0, 100}, 0.95);
    double percentForm = Percentiles.linear(new long[] {0, 0, 0, 100}, 95);

    assertThat(quantileForm).isEqualTo((0.95 * 3 - 2) * 100);
    assertThat(percentForm).isEqualTo((2.85 - 2) * 100);
    assertThat(quantileForm).isNotEqualTo(percentForm).isCloseTo(percentForm, within(1e-12));
  }

  @Test
  void linearAtQuantile_noValues_refused() {
    assertThatThrownBy(() -> Percentiles.linearAtQuantile(new double[0], 0.5))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("no values");
  }

  @Test
  void outOfRange_refusedNamingTheValueAndTheRange() {
    assertThatThrownBy(() -> Percentiles.linear(new long[] {1}, 101))
        .isInstanceOf(CapacityException.class)
        .hasMessageContainingAll("101", "[0, 100]");
    // a percentile passed where a quantile is due
    assertThatThrownBy(() -> Percentiles.linearAtQuantile(new double[] {1}, 95))
        .isInstanceOf(CapacityException.class)
        .hasMessageContainingAll("95", "[0, 1]");
  }

  @ParameterizedTest
  @CsvSource({
    // n, q, ⌈q·n⌉ (at least 1)
    "1, 0.9, 1",
    "10, 0.9, 9",
    "11, 0.9, 10",
    "20, 0.95, 19",
    "21, 0.95, 20",
    "4, 0.5, 2",
    "5, 0.5, 3",
    "7, 0, 1",
    "7, 1, 7"
  })
  void nearestRank_isCeilingOfQTimesN(int n, double q, int rank) {
    assertThat(Percentiles.nearestRank(n, q)).isEqualTo(rank);
  }

  @Test
  void nearestRank_values_isOneOfThemNeverInterpolated() {
    double[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

    assertThat(Percentiles.nearestRank(sorted, 0.9)).isEqualTo(9);
    assertThat(Percentiles.nearestRank(sorted, 0.95)).isEqualTo(10);
    assertThat(Percentiles.nearestRank(sorted, 0.5)).isEqualTo(5);
  }

  @Test
  void nearestRank_noValues_refused() {
    assertThatThrownBy(() -> Percentiles.nearestRank(new double[0], 0.95))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("n = 0");
  }
}
