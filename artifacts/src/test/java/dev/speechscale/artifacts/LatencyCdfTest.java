package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyCdfTest {
  /** 1 to 100 ms, one request each. */
  static String oneToHundredMs() {
    Histogram h = Histograms.newMicros();
    for (int ms = 1; ms <= 100; ms++) {
      h.recordValue(ms * 1000L);
    }
    return Histograms.encode(h);
  }

  @Test
  void ofMicros_uniformValues_readsEachFractionsValueInMilliseconds() {
    LatencyCdf cdf = LatencyCdf.ofMicros(oneToHundredMs());

    assertThat(cdf.count()).isEqualTo(100);
    assertThat(cdf.points()).hasSize(LatencyCdf.FRACTIONS.size());
    assertThat(cdf.points().getFirst().valueMs()).isCloseTo(1.0, within(0.01));
    assertThat(cdf.points().getLast().valueMs()).isCloseTo(100.0, within(0.1));
    LatencyCdf.Point median =
        cdf.points().stream().filter(p -> p.fraction() == 0.5).findFirst().orElseThrow();
    assertThat(median.valueMs()).isCloseTo(50.0, within(0.1));
  }

  @Test
  void ofMicros_anyHistogram_isNonDecreasingInBothCoordinates() {
    List<LatencyCdf.Point> points = LatencyCdf.ofMicros(oneToHundredMs()).points();

    for (int i = 1; i < points.size(); i++) {
      assertThat(points.get(i).fraction()).isGreaterThan(points.get(i - 1).fraction());
      assertThat(points.get(i).valueMs()).isGreaterThanOrEqualTo(points.get(i - 1).valueMs());
    }
  }

  @Test
  void ofMicros_emptyHistogram_hasNoPoints() {
    LatencyCdf cdf = LatencyCdf.ofMicros(Histograms.encode(Histograms.newMicros()));

    assertThat(cdf.count()).isZero();
    assertThat(cdf.points()).isEmpty();
  }

  @Test
  void ofMicros_notAHistogram_refused() {
    assertThatThrownBy(() -> LatencyCdf.ofMicros("bm90IGEgaGlzdG9ncmFt"))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("not an encoded HdrHistogram");
  }
}
