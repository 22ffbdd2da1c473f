package dev.speechscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class UtilizationTest {

  @Test
  void mm1_atPublishedThreshold_is97point4Percent() {
    assertThat(Utilization.mm1(37.5)).isCloseTo(0.974025974025974, within(1e-15));
  }

  @Test
  void mg1_withExponentialService_equalsMm1() {
    for (double l : new double[] {0.5, 1, 4, 37.5}) {
      assertThat(Utilization.mg1(l, 1.0)).isCloseTo(Utilization.mm1(l), within(1e-12));
    }
  }

  @Test
  void mg1_withConstantServiceAtOccupancyOne_isTwoMinusRootTwo() {
    // M/D/1: L = ρ + ρ²/(2(1 − ρ)) = 1 at ρ = 2 − √2.
    assertThat(Utilization.mg1(1, 0)).isCloseTo(2 - Math.sqrt(2), within(1e-12));
  }

  @Test
  void mg1_solvesPollaczekKhinchine() {
    SplitMix64 rng = new SplitMix64(7);
    for (int i = 0; i < 200; i++) {
      double l = 50 * rng.nextDouble();
      double cv = 2 * rng.nextDouble();
      double rho = Utilization.mg1(l, cv);
      double back = rho + rho * rho * (1 + cv * cv) / (2 * (1 - rho));
      assertThat(rho).isBetween(0.0, 1.0);
      assertThat(back).isCloseTo(l, within(1e-6 * Math.max(1, l)));
    }
  }

  @Test
  void mm1_negativeOccupancy_isRefused() {
    assertThatThrownBy(() -> Utilization.mm1(-1))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("occupancy (-1.0)");
  }
}
