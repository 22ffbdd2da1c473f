package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.artifacts.Histograms;
import dev.speechscale.capacity.SplitMix64;
import java.util.Arrays;
import java.util.stream.LongStream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PercentilesTest {
  @Test
  void linear_evenCount_interpolatesTheMedian() {
    assertThat(Percentiles.linear(new long[] {1, 2, 3, 4}, 50)).isEqualTo(2.5);
  }

  @Test
  void linear_oneToHundred_p95IsBetweenRanks() {
    long[] values = LongStream.rangeClosed(1, 100).toArray();

    assertThat(Percentiles.linear(values, 95)).isCloseTo(95.05, within(1e-9));
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
  void linear_noValues_refused() {
    assertThatThrownBy(() -> Percentiles.linear(new long[0], 50))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("no values");
  }

  @Test
  void linear_percentileOutOfRange_refused() {
    assertThatThrownBy(() -> Percentiles.linear(new long[] {1}, 101))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("101");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 7, 42})
  void linearHistogram_randomSamples_agreesWithRawWithinResolution(long seed) {
    SplitMix64 rng = new SplitMix64(seed);
    long[] micros = new long[2001];
    Histogram h = Histograms.newMicros();
    for (int i = 0; i < micros.length; i++) {
      micros[i] = 1000 + (long) (rng.nextDouble() * 500_000);
      h.recordValue(micros[i]);
    }
    Arrays.sort(micros);
    for (double p : new double[] {0, 50, 95, 99, 100}) {
      double raw = Percentiles.linear(micros, p);
      assertThat(Percentiles.linear(h, p)).isCloseTo(raw, within(raw * 0.002));
    }
  }

  @Test
  void linearHistogram_twoValues_interpolatesBetweenBuckets() {
    Histogram h = Histograms.newMicros();
    h.recordValue(100);
    h.recordValue(200);

    assertThat(Percentiles.linear(h, 50)).isCloseTo(150, within(0.5));
  }

  @Test
  void recordNanos_roundsToMicrosAndKeepsSubMicroAtOne() {
    Histogram h = Histograms.newMicros();
    Percentiles.recordNanos(h, 200);
    Percentiles.recordNanos(h, 1_499);

    assertThat(h.getMinValue()).isEqualTo(1);
    assertThat(h.getTotalCount()).isEqualTo(2);
  }
}
