package dev.speechscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ThresholdsTest {

  @Test
  void of_publishedExample_gives37point5And25() {
    Thresholds t = Thresholds.of(50, 1.25);

    assertThat(t.cScaleMax()).isCloseTo(37.5, within(1e-12));
    assertThat(t.cScaleMin()).isCloseTo(25.0, within(1e-12));
    assertThat(t.minSafeInstances()).hasValue(3);
  }

  @ParameterizedTest(name = "k={0} -> N_safe {1}")
  @CsvSource({"1.05,19", "1.1,9", "1.25,3", "1.4,2", "1.2,4", "1.3,3", "1.15,6"})
  void of_referenceTableAtQ50_givesNSafe(double k, int expected) {
    assertThat(Thresholds.of(50, k).minSafeInstances()).hasValue(expected);
  }

  @Test
  void of_surgeRatioOne_hasNoSafeFleetSize() {
    Thresholds t = Thresholds.of(50, 1.0);

    assertThat(t.cScaleMax()).isEqualTo(t.cScaleMin());
    assertThat(t.minSafeInstances()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({"1.5", "0.99", "2.0", "NaN"})
  void of_surgeRatioOutsideRange_isRefusedWithTheRule(double k) {
    assertThatThrownBy(() -> Thresholds.of(50, k))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("surge ratio (" + k + ")")
        .hasMessageContaining("[1, 1.5)");
  }

  @Test
  void of_surgeRatioJustUnderLimit_isAccepted() {
    Thresholds t = Thresholds.of(50, 1.49);

    assertThat(t.cScaleMin()).isCloseTo(1.0, within(1e-9));
    assertThat(t.minSafeInstances()).hasValue(2);
  }

  @Test
  void of_zeroQMax_isRefused() {
    assertThatThrownBy(() -> Thresholds.of(0, 1.25))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("Q_max (0.0)");
  }
}
