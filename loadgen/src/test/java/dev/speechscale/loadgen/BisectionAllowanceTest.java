package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BisectionAllowanceTest {
  private static final DryRun.ServiceAssumption SERIAL_100MS =
      DryRun.ServiceAssumption.serial(Duration.ofMillis(100));

  @Test
  void worstCase_publishedLadder_allowsFourRungsOverTheWidestGap() {
    LadderSpec spec =
        LadderSpec.of(
                List.of(1, 5, 10, 20, 30, 40, 50, 60),
                Duration.ofSeconds(240),
                Duration.ofSeconds(60),
                1,
                3000)
            .withSettle(Duration.ofSeconds(30))
            .withDrift(DriftRecheck.OFF);

    BisectionAllowance a = BisectionAllowance.worstCase(spec, SERIAL_100MS);

    assertThat(a.rungsPerRun()).isEqualTo(4);
    assertThat(a.below()).isEqualTo(10);
    assertThat(a.above()).isEqualTo(20);
    // 4 x (30 s settle + 240 s hold + the top rung's drain, 60 x 100 ms)
    assertThat(a.wallTime()).isEqualTo(Duration.ofSeconds(4 * 276));
  }

  @Test
  void worstCase_twoRuns_doublesTheTime() {
    LadderSpec spec =
        LadderSpec.of(
                List.of(1, 2, 4, 8, 16, 32), Duration.ofSeconds(30), Duration.ofSeconds(20), 2, 500)
            .withDrift(DriftRecheck.OFF);

    BisectionAllowance a = BisectionAllowance.worstCase(spec, SERIAL_100MS);

    assertThat(a.rungsPerRun()).isEqualTo(4);
    assertThat(a.below()).isEqualTo(16);
    assertThat(a.wallTime()).isEqualTo(Duration.ofMillis(2 * 4 * (30_000 + 3_200)));
  }

  @Test
  void worstCase_noRefine_allowsNothing() {
    LadderSpec spec =
        LadderSpec.of(List.of(1, 10), Duration.ofSeconds(30), Duration.ofSeconds(20), 1, 500)
            .withRefine(false)
            .withDrift(DriftRecheck.OFF);

    assertThat(BisectionAllowance.worstCase(spec, SERIAL_100MS).wallTime()).isZero();
  }

  @Test
  void worstCase_defaultDriftCheck_addsOneHoldPerRun() {
    LadderSpec spec =
        LadderSpec.of(
            List.of(1, 2, 4, 8, 16, 32), Duration.ofSeconds(8), Duration.ofSeconds(5), 2, 1000);

    BisectionAllowance a = BisectionAllowance.worstCase(spec, SERIAL_100MS);

    assertThat(a.rungsPerRun()).isEqualTo(4);
    assertThat(a.rechecksPerRun()).isEqualTo(1);
    // 2 runs x (4 bisection rungs + 1 re-check) x (8 s hold + the top rung's 3.2 s drain)
    assertThat(a.wallTime()).isEqualTo(Duration.ofMillis(2 * 5 * (8_000 + 3_200)));
  }

  @Test
  void worstCase_recheckBetweenBisectionSteps_addsOnePerBisectionRung() {
    LadderSpec spec =
        LadderSpec.of(
                List.of(1, 2, 4, 8, 16, 32), Duration.ofSeconds(8), Duration.ofSeconds(5), 1, 1000)
            .withDrift(new DriftRecheck(DriftRecheck.Mode.BISECTION, 10, 15));

    BisectionAllowance a = BisectionAllowance.worstCase(spec, SERIAL_100MS);

    // 3 between the 4 bisection steps and 1 at the end
    assertThat(a.rechecksPerRun()).isEqualTo(4);
    assertThat(a.wallTime()).isEqualTo(Duration.ofMillis(8 * (8_000 + 3_200)));
  }

  @Test
  void worstCase_noRefineButDriftCheck_allowsTheRecheckOnly() {
    LadderSpec spec =
        LadderSpec.of(List.of(1, 10), Duration.ofSeconds(30), Duration.ofSeconds(20), 1, 500)
            .withRefine(false);

    BisectionAllowance a = BisectionAllowance.worstCase(spec, SERIAL_100MS);

    assertThat(a.rungsPerRun()).isZero();
    assertThat(a.rechecksPerRun()).isEqualTo(1);
    assertThat(a.wallTime()).isEqualTo(Duration.ofSeconds(31));
  }

  @ParameterizedTest(name = "gap {0} -> {1} halvings")
  @CsvSource({"2,1", "3,2", "4,2", "5,3", "8,3", "9,4", "10,4", "16,4", "17,5"})
  void ceilLog2_gap_isTheHalvingsToOne(int gap, int halvings) {
    assertThat(BisectionAllowance.ceilLog2(gap)).isEqualTo(halvings);
  }
}
