package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.capacity.CapacityException;
import dev.speechscale.capacity.Percentiles;
import dev.speechscale.capacity.SplitMix64;
import java.util.Arrays;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HistogramsTest {
  @ParameterizedTest
  @ValueSource(longs = {1, 7, 42})
  void linearPercentile_randomSamples_agreesWithRawWithinResolution(long seed) {
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
      assertThat(Histograms.linearPercentile(h, p)).isCloseTo(raw, within(raw * 0.002));
    }
  }

  @Test
  void linearPercentile_twoValues_interpolatesBetweenBuckets() {
    Histogram h = Histograms.newMicros();
    h.recordValue(100);
    h.recordValue(200);

    assertThat(Histograms.linearPercentile(h, 50)).isCloseTo(150, within(0.5));
  }

  @Test
  void linearPercentile_emptyHistogram_refused() {
    assertThatThrownBy(() -> Histograms.linearPercentile(Histograms.newMicros(), 50))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("no values");
  }

  @Test
  void recordNanos_roundsToMicrosAndKeepsSubMicroAtOne() {
    Histogram h = Histograms.newMicros();
    Histograms.recordNanos(h, 200);
    Histograms.recordNanos(h, 1_499);

    assertThat(h.getMinValue()).isEqualTo(1);
    assertThat(h.getTotalCount()).isEqualTo(2);
  }
}
