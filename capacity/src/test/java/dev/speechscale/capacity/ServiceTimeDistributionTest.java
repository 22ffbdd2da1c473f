package dev.speechscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ServiceTimeDistributionTest {

  @Test
  void lognormal_keepsTheMeanAndThePercentile() {
    ServiceTimeDistribution d = ServiceTimeDistribution.lognormal(0.0613, 0.0661);

    assertThat(d.meanSeconds()).isCloseTo(0.0613, within(1e-12));
    assertThat(d.sample(0.95)).isCloseTo(0.0661, within(0.0661 * 0.01));
    assertThat(d.coefficientOfVariation()).isCloseTo(0.047, within(0.003));
  }

  @Test
  void lognormal_p95NotAboveMean_isConstant() {
    ServiceTimeDistribution d = ServiceTimeDistribution.lognormal(0.1, 0.1);

    assertThat(d.coefficientOfVariation()).isCloseTo(0, within(1e-12));
    assertThat(d.sample(0.0)).isEqualTo(0.1);
    assertThat(d.sample(0.999)).isEqualTo(0.1);
  }

  @Test
  void ofQuantiles_sortsAndSamplesByInverseTransform() {
    ServiceTimeDistribution d = ServiceTimeDistribution.ofQuantiles(new double[] {3, 1, 2, 4}, "t");

    assertThat(d.sample(0.0)).isEqualTo(1);
    assertThat(d.sample(0.3)).isEqualTo(2);
    assertThat(d.sample(0.99)).isEqualTo(4);
    assertThat(d.meanSeconds()).isEqualTo(2.5);
  }

  @Test
  void scaledToMean_keepsTheShape() {
    ServiceTimeDistribution d =
        ServiceTimeDistribution.ofQuantiles(new double[] {1, 2, 3}, "t").scaledToMean(4);

    assertThat(d.meanSeconds()).isCloseTo(4, within(1e-12));
    assertThat(d.sample(0)).isCloseTo(2, within(1e-12));
    assertThat(d.coefficientOfVariation())
        .isCloseTo(
            ServiceTimeDistribution.ofQuantiles(new double[] {1, 2, 3}, "t")
                .coefficientOfVariation(),
            within(1e-12));
  }

  @Test
  void inverseNormal_matchesKnownQuantiles() {
    assertThat(ServiceTimeDistribution.inverseNormal(0.5)).isCloseTo(0, within(1e-9));
    assertThat(ServiceTimeDistribution.inverseNormal(0.95)).isCloseTo(1.6448536, within(1e-6));
    assertThat(ServiceTimeDistribution.inverseNormal(0.01)).isCloseTo(-2.3263479, within(1e-6));
  }

  @Test
  void ofQuantiles_nonPositive_isRefused() {
    assertThatThrownBy(() -> ServiceTimeDistribution.ofQuantiles(new double[] {0, 1}, "t"))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("finite and positive");
  }
}
