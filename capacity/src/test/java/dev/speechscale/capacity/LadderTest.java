package dev.speechscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LadderTest {

  static Rung rung(int run, int n, double p95, boolean usable) {
    return new Rung(
        run,
        0,
        n,
        100,
        0,
        10.0,
        (double) n,
        p95,
        50.0,
        60.0,
        null,
        null,
        usable,
        usable ? null : "client_bound",
        null);
  }

  @Test
  void of_publishedLadder_gives50BracketedNotRefined() {
    Ladder ladder = Ladder.of(KokoroExample.rungs(0, 1.0), 3000);

    assertThat(ladder.qMax()).isEqualTo(50);
    assertThat(ladder.bracketed()).isTrue();
    assertThat(ladder.refined()).isFalse();
    assertThat(ladder.qMaxPerRun()).containsExactly(50);
  }

  @Test
  void of_onlyAnUnusableRungAbove_isNotBracketed() {
    Ladder ladder = Ladder.of(List.of(rung(0, 10, 500, true), rung(0, 20, 4000, false)), 3000);

    assertThat(ladder.qMax()).isEqualTo(10);
    assertThat(ladder.bracketed()).isFalse();
  }

  @Test
  void of_breachAtQMaxPlusOne_isRefined() {
    Ladder ladder =
        Ladder.of(
            List.of(rung(0, 50, 2900, true), rung(0, 60, 3100, true), rung(0, 51, 3001, true)),
            3000);

    assertThat(ladder.qMax()).isEqualTo(50);
    assertThat(ladder.refined()).isTrue();
  }

  @Test
  void of_severalRuns_takesTheMinimumAndReportsTheSpread() {
    List<Rung> rungs = new ArrayList<>();
    rungs.add(rung(0, 40, 2000, true));
    rungs.add(rung(0, 50, 2900, true));
    rungs.add(rung(1, 40, 2900, true));
    rungs.add(rung(1, 50, 3100, true));

    Ladder ladder = Ladder.of(rungs, 3000);

    assertThat(ladder.qMaxPerRun()).containsExactly(50, 40);
    assertThat(ladder.qMax()).isEqualTo(40);
    assertThat(ladder.qMaxSpread()).isCloseTo(0.2, within(1e-12));
    assertThat(ladder.bracketed()).isTrue();
  }

  @Test
  void of_pTimesEqualToTheSlo_meetsIt() {
    assertThat(Ladder.of(List.of(rung(0, 5, 3000, true)), 3000).qMax()).isEqualTo(5);
  }

  @Test
  void of_nothingPasses_givesZero() {
    Ladder ladder = Ladder.of(List.of(rung(0, 1, 3500, true)), 3000);

    assertThat(ladder.qMax()).isZero();
    assertThat(ladder.bracketed()).isFalse();
  }

  @Test
  void of_noSteps_isRefused() {
    assertThatThrownBy(() -> Ladder.of(List.of(), 3000))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("no steps");
  }

  @Test
  void throughputCurve_interpolatesBetweenRungsAndHoldsFlatOutside() {
    ThroughputCurve curve = Ladder.of(KokoroExample.rungs(0, 1.0), 3000).throughputCurve();

    assertThat(curve.at(37.5).orElseThrow()).isCloseTo(17.8875, within(1e-9));
    assertThat(curve.at(0.5).orElseThrow()).isCloseTo(16.0833, within(1e-3));
    assertThat(curve.at(100).orElseThrow()).isCloseTo(17.9, within(1e-9));
    assertThat(curve.extrapolates(100)).isTrue();
    assertThat(curve.peak().orElseThrow()).isCloseTo(17.91667, within(1e-5));
  }

  @Test
  void ratioNear_tieBetweenRungs_takesTheHigher() {
    List<Rung> rungs = new ArrayList<>(KokoroExample.rungs(0, 1.0));
    rungs.set(3, withServer(rungs.get(3), 20 * 1.1, 20 * 0.9));
    rungs.set(4, withServer(rungs.get(4), 30 * 1.2, 30 * 0.8));

    UnitsRatio avg =
        Ladder.of(rungs, 3000).ratioNear(25.0, UnitsRatio.Statistic.AVERAGE).orElseThrow();

    assertThat(avg.atConcurrency()).isEqualTo(30);
    assertThat(avg.ratio()).isCloseTo(0.8, within(1e-12));
  }

  @Test
  void ratioNear_noServerMetrics_isEmpty() {
    Ladder ladder = Ladder.of(KokoroExample.rungs(0, Double.NaN), 3000);

    assertThat(ladder.ratioNear(37.5, UnitsRatio.Statistic.MAXIMUM)).isEmpty();
  }

  @Test
  void serviceTimeAndCharsPerRequest_readTheLowestRung() {
    Ladder ladder = Ladder.of(KokoroExample.rungs(0, 1.0), 3000);

    Ladder.ServiceTime s = ladder.serviceTime().orElseThrow();
    assertThat(s.meanSeconds()).isCloseTo(KokoroExample.S_MEAN_S, within(1e-12));
    assertThat(s.p95Seconds()).isCloseTo(KokoroExample.S_P95_S, within(1e-12));
    assertThat(s.atConcurrency()).isEqualTo(1);
    assertThat(ladder.charsPerRequest().orElseThrow()).isCloseTo(25.2, within(0.01));
  }

  private static Rung timed(int run, int n, double latencyMeanMs, boolean usable) {
    return new Rung(
        run,
        n,
        n,
        100,
        0,
        10.0,
        (double) n,
        40.0,
        latencyMeanMs,
        latencyMeanMs * 1.3,
        null,
        null,
        usable,
        usable ? null : "not settled: TTFAB drifted -11.1 ms",
        null);
  }

  /**
   * The five quickstarts of 2026-12-02: in three, N=1 was judged not settled and S_mean came from
   * N=2, where two requests share a serial engine (129-136 ms against 64-68 ms at N=1).
   */
  @Test
  void serviceTime_unsettledN1_isStillReadAtN1AndSaysWhy() {
    Ladder ladder =
        Ladder.of(
            List.of(timed(0, 1, 66.5, false), timed(0, 2, 132.3, true), timed(0, 4, 285, true)),
            3000);

    Ladder.ServiceTime s = ladder.serviceTime().orElseThrow();
    assertThat(s.atConcurrency()).isEqualTo(1);
    assertThat(s.meanSeconds()).isCloseTo(0.0665, within(1e-9));
    assertThat(s.unusableWindow()).isEqualTo("run 0: not settled: TTFAB drifted -11.1 ms");
  }

  @Test
  void serviceTime_aUsableN1InAnyRun_usesOnlyTheUsableOnes() {
    Ladder ladder =
        Ladder.of(
            List.of(
                timed(0, 1, 90, false),
                timed(0, 2, 130, true),
                timed(1, 1, 60, true),
                timed(1, 2, 125, true)),
            3000);

    Ladder.ServiceTime s = ladder.serviceTime().orElseThrow();
    assertThat(s.meanSeconds()).isCloseTo(0.060, within(1e-9));
    assertThat(s.unusableWindow()).isNull();
  }

  @Test
  void serviceTime_noN1Rung_readsTheLowestUsable() {
    Ladder ladder = Ladder.of(List.of(timed(0, 5, 300, false), timed(0, 10, 600, true)), 3000);

    Ladder.ServiceTime s = ladder.serviceTime().orElseThrow();
    assertThat(s.atConcurrency()).isEqualTo(10);
    assertThat(s.meanSeconds()).isCloseTo(0.600, within(1e-9));
    assertThat(s.unusableWindow()).isNull();
  }

  private static Rung withServer(Rung r, double peak, double mean) {
    return new Rung(
        r.runIndex(),
        r.stepIndex(),
        r.concurrency(),
        r.ok(),
        r.rejected(),
        r.achievedRps(),
        r.concurrencyMean(),
        r.ttfabP95Ms(),
        r.latencyMeanMs(),
        r.latencyP95Ms(),
        peak,
        mean,
        r.usable(),
        r.unusableReason(),
        r.chars());
  }
}
