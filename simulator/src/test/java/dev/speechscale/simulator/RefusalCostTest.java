package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The refusal-cost arithmetic, against hand-worked numbers. */
class RefusalCostTest {

  @Test
  void estimate_fourteenServedDownToTwelveWhileRefusingTen_isOneSeventhOverTenPerRefusal() {
    // X0 14, X1 12, r 10: τ = (1 − 12/14) / 10 = 0.0142857 s; (14 − 12) / 10 = 0.2 requests;
    // c = (14/12 − 1) / 10 = 0.0166667 s
    RefusalCost.Estimate e = RefusalCost.estimate(14, 12, 10);

    assertThat(e.secondsPerRefusal()).isCloseTo(1.0 / 70, within(1e-12));
    assertThat(e.servedRequestsPerRefusal()).isCloseTo(0.2, within(1e-12));
    assertThat(e.hyperbolicCSeconds()).isCloseTo(1.0 / 60, within(1e-12));
  }

  @Test
  void estimate_servedMoreWhileRefusing_isNegative() {
    assertThat(RefusalCost.estimate(14, 14.7, 7).secondsPerRefusal()).isNegative();
  }

  @Test
  void estimate_servedNothingWhileRefusing_hasNoFiniteHyperbolicC() {
    RefusalCost.Estimate e = RefusalCost.estimate(10, 0, 1000);

    assertThat(e.secondsPerRefusal()).isCloseTo(0.001, within(1e-15));
    assertThat(e.hyperbolicCSeconds()).isInfinite();
  }

  @Test
  void estimate_noRefusals_isRefusedNamingTheRule() {
    assertThatThrownBy(() -> RefusalCost.estimate(14, 14, 0))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("refusal rate (0.0/s)")
        .hasMessageContaining("drive the instance past queue_max_depth");
  }

  @Test
  void estimate_nothingServedWithout_isRefused() {
    assertThatThrownBy(() -> RefusalCost.estimate(0, 0, 5))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("without refusals (0.0 req/s)");
  }

  @Test
  void servedPerSecond_isLinearInTheRefusalRate() {
    RefusalCost c = new RefusalCost(0.010, "test");

    assertThat(c.servedPerSecond(15, 8)).isCloseTo(15 * 0.92, within(1e-12));
    assertThat(c.servedPerSecond(15, 200)).isZero();
  }

  @Test
  void hyperbolicC_givesTheSameServedThroughputAsTheLinearLaw() {
    RefusalCost c = new RefusalCost(0.010, "test");
    double r = 8;

    assertThat(15 / (1 + c.hyperbolicC(r) * r)).isCloseTo(c.servedPerSecond(15, r), within(1e-12));
  }

  @Test
  void servedAtOfferedRate_refusesWhatItDoesNotServe() {
    RefusalCost c = new RefusalCost(0.010, "test");
    double served = c.servedAtOfferedRate(15, 22);

    // served = X_sat (1 − (λ − served) τ)
    assertThat(served).isCloseTo(c.servedPerSecond(15, 22 - served), within(1e-12));
    assertThat(new RefusalCost(0, "none").servedAtOfferedRate(15, 22)).isEqualTo(15);
  }

  @Test
  void constructor_negativeCost_isRefusedNamingTheFlag() {
    assertThatThrownBy(() -> new RefusalCost(-0.001, "--refusal-cost-ms"))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("-0.001 s per refusal, from --refusal-cost-ms")
        .hasMessageContaining(">= 0");
  }

  @Test
  void pool_quietQuickstarts_weighsEachByItsUncertainty() {
    // the four quiet quickstarts' open-loop phases (measurements/simulator-calibration.md): 14.4 ±
    // 1.0, 3.4 ± 10.2, 13.7 ± 10.3, 9.0 ± 2.1 ms
    RefusalCost.Measured p =
        RefusalCost.pool(
            java.util.List.of(
                new RefusalCost.Measured(0.0144, 0.0010),
                new RefusalCost.Measured(0.0034, 0.0102),
                new RefusalCost.Measured(0.0137, 0.0103),
                new RefusalCost.Measured(0.0090, 0.0021)));

    // weights 1e6, 9612, 9426, 226757 (per s²): (14400 + 32.7 + 129.1 + 2040.8) / 1245795 × 1e3
    assertThat(p.secondsPerRefusal() * 1000).isCloseTo(13.33, within(0.01));
    assertThat(p.uncertaintySeconds() * 1000).isCloseTo(0.896, within(0.001));
  }

  @Test
  void pool_oneMeasurement_isItself() {
    RefusalCost.Measured one = new RefusalCost.Measured(0.005, 0.001);

    assertThat(RefusalCost.pool(java.util.List.of(one))).isEqualTo(one);
  }

  @Test
  void measured_zeroUncertainty_isRefusedNamingIt() {
    assertThatThrownBy(() -> new RefusalCost.Measured(0.005, 0))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("uncertainty (0.0 s) must be finite and positive");
  }
}
