package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LogHistogramTest {

  @Test
  void index_everyValue_landsInABucketWhoseMidpointIsWithinOnePercent() {
    for (long v = 1; v < 1L << 39; v = v * 3 / 2 + 1) {
      double mid = LogHistogram.midpointMicros(LogHistogram.index(v));
      assertThat(mid).as("value %d", v).isCloseTo(v, within(Math.max(0.5, 0.008 * v)));
    }
  }

  @Test
  void quantileMs_nearestRank() {
    LogHistogram h = new LogHistogram();
    for (int i = 1; i <= 100; i++) {
      h.record(i * 1000L);
    }

    assertThat(h.quantileMs(0.95)).isCloseTo(95, within(0.8));
    assertThat(h.quantileMs(0.5)).isCloseTo(50, within(0.4));
  }

  @Test
  void quantileMs_empty_isNaN() {
    assertThat(new LogHistogram().quantileMs(0.95)).isNaN();
  }
}
