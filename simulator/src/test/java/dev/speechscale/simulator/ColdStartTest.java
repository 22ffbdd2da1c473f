package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColdStartTest {
  @Test
  void fromServiceTimes_freshInstance_givesDoublingBucketsOverTheWarmHalf() {
    // 32 requests: 0-3 at 0.3 s, 4-7 at 0.2 s, 8-15 at 0.12 s, then 0.1 s (the warm half 16-31)
    double[] s = new double[32];
    Arrays.fill(s, 0, 4, 0.3);
    Arrays.fill(s, 4, 8, 0.2);
    Arrays.fill(s, 8, 16, 0.12);
    Arrays.fill(s, 16, 32, 0.1);

    ColdStart c = ColdStart.fromServiceTimes(s, "qmax warm-up");

    assertThat(c.steps()).hasSize(3);
    assertThat(c.steps().get(0).untilRequest()).isEqualTo(4);
    assertThat(c.steps().get(0).factor()).isCloseTo(3.0, within(1e-9));
    assertThat(c.steps().get(1).untilRequest()).isEqualTo(8);
    assertThat(c.steps().get(1).factor()).isCloseTo(2.0, within(1e-9));
    assertThat(c.steps().get(2).untilRequest()).isEqualTo(16);
    assertThat(c.steps().get(2).factor()).isCloseTo(1.2, within(1e-9));
    assertThat(c.factor(0)).isCloseTo(3.0, within(1e-9));
    assertThat(c.factor(7)).isCloseTo(2.0, within(1e-9));
    assertThat(c.factor(16)).isEqualTo(1.0);
    assertThat(c.rampRequests()).isEqualTo(16);
    assertThat(c.describe())
        .isEqualTo(
            "a new instance's first requests take 3.00x (0-3), 2.00x (4-7), 1.20x (8-15) a warm"
                + " one's time (qmax warm-up)");
  }

  @Test
  void fromServiceTimes_aBucketNoSlowerThanWarm_endsTheRamp() {
    // 0-3 slower, 4-7 as warm, 8-15 slower again (noise): the ramp ends at the first warm bucket
    double[] s = new double[32];
    Arrays.fill(s, 0.1);
    Arrays.fill(s, 0, 4, 0.15);
    Arrays.fill(s, 8, 16, 0.13);

    ColdStart c = ColdStart.fromServiceTimes(s, "x");

    assertThat(c.steps()).hasSize(1);
    assertThat(c.steps().getFirst().untilRequest()).isEqualTo(4);
    assertThat(c.steps().getFirst().factor()).isCloseTo(1.5, within(1e-9));
  }

  @Test
  void fromServiceTimes_warmInstanceOrTooFewRequests_isNone() {
    double[] warm = new double[40];
    Arrays.fill(warm, 0.1);
    warm[0] = 0.09;
    warm[4] = 0.11; // 4-7 at 0.1025 s: 2.5 % above the warm half, noise, not a cold start

    assertThat(ColdStart.fromServiceTimes(warm, "x")).isEqualTo(ColdStart.NONE);
    assertThat(ColdStart.fromServiceTimes(new double[] {0.5, 0.1, 0.1}, "x"))
        .isEqualTo(ColdStart.NONE);
    assertThat(ColdStart.NONE.factor(0)).isEqualTo(1.0);
    assertThat(ColdStart.NONE.describe())
        .isEqualTo("new instances serve warm from their first request");
  }

  @Test
  void step_factorBelowOne_isRefusedNamingTheValue() {
    assertThatThrownBy(() -> new ColdStart.Step(4, 0.8))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("factor (0.8, requests below 4) must be a finite number >= 1");
  }

  @Test
  void steps_notIncreasing_areRefusedNamingBoth() {
    List<ColdStart.Step> steps = List.of(new ColdStart.Step(8, 2), new ColdStart.Step(4, 1.5));

    assertThatThrownBy(() -> new ColdStart(steps, "x"))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("step 1 ends at request 4, the one before at 8");
  }

  @Test
  void run_initialFleet_isWarm() {
    InstanceModel warm =
        FleetSimulatorTest.constant(0.1, 10, Duration.ofSeconds(56), Duration.ZERO);
    InstanceModel cold =
        warm.withColdStart(new ColdStart(List.of(new ColdStart.Step(1000, 5)), "test"));
    Traffic t = Traffic.constant(6, Duration.ofSeconds(120));
    FleetSimulator.Options o = new FleetSimulator.Options(3000, Duration.ZERO, 7);

    PolicyResult a = FleetSimulator.run(warm, t, new Policy.Fixed(2), o, Progress.none());
    PolicyResult b = FleetSimulator.run(cold, t, new Policy.Fixed(2), o, Progress.none());

    assertThat(b.ttfabMeanMs()).isEqualTo(a.ttfabMeanMs());
    assertThat(b.served()).isEqualTo(a.served());
  }

  @Test
  void run_initialFleetThatServedPartOfTheColdStart_goesOnAlongItFromThere() {
    InstanceModel warm =
        FleetSimulatorTest.constant(0.1, 10, Duration.ofSeconds(56), Duration.ZERO);
    // requests 0-999 at 5x: an initial instance that served 950 has 50 slow ones left
    InstanceModel cold =
        warm.withColdStart(new ColdStart(List.of(new ColdStart.Step(1000, 5)), "test"));
    Traffic t = Traffic.constant(2, Duration.ofSeconds(300));
    FleetSimulator.Options o = new FleetSimulator.Options(3000, Duration.ZERO, 7);

    PolicyResult asWarm = FleetSimulator.run(warm, t, new Policy.Fixed(1), o, Progress.none());
    PolicyResult past =
        FleetSimulator.run(
            cold, t, new Policy.Fixed(1), o.withInitialServed(1000), Progress.none());
    PolicyResult partly =
        FleetSimulator.run(cold, t, new Policy.Fixed(1), o.withInitialServed(950), Progress.none());
    PolicyResult fresh =
        FleetSimulator.run(cold, t, new Policy.Fixed(1), o.withInitialServed(0), Progress.none());

    assertThat(past.ttfabMeanMs()).isEqualTo(asWarm.ttfabMeanMs());
    assertThat(partly.ttfabMeanMs()).isGreaterThan(asWarm.ttfabMeanMs());
    assertThat(fresh.ttfabMeanMs()).isGreaterThan(partly.ttfabMeanMs());
    assertThat(o.initialServed()).isEqualTo(FleetSimulator.Options.INITIAL_WARM);
    assertThatThrownBy(() -> o.withInitialServed(-2))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("initial instances' requests served (-2)");
  }

  @Test
  void run_scaleOutInstance_servesItsFirstRequestsSlower() {
    InstanceModel warm =
        FleetSimulatorTest.constant(0.1, 10, Duration.ofSeconds(56), Duration.ofSeconds(20));
    // 200 requests at 3x: with 0.1 s each a new instance is a third of a warm one for ~60 s
    InstanceModel cold =
        warm.withColdStart(new ColdStart(List.of(new ColdStart.Step(200, 3)), "test"));
    Traffic t = Traffic.step(30, 2, Duration.ofSeconds(3600));
    FleetSimulator.Options o = new FleetSimulator.Options(3000, Duration.ZERO, 42);
    Policy p = Policies.planned(FleetSimulatorTest.numbers(4));

    PolicyResult a = FleetSimulator.run(warm, t, p, o, Progress.none());
    PolicyResult b = FleetSimulator.run(cold, t, p, o, Progress.none());

    // the same first decision (the surge, before any new instance serves), then a slower fleet
    assertThat(b.events().getFirst()).isEqualTo(a.events().getFirst());
    assertThat(b.ttfabMeanMs()).isGreaterThan(a.ttfabMeanMs());
    assertThat(b.withinSlo()).isLessThanOrEqualTo(a.withinSlo());
    assertThat(cold.derivation())
        .endsWith("; a new instance's first requests take 3.00x (0-199) a warm one's time (test)");
  }

  @Test
  void fromWindows_aScaleOutsWindows_giveStepsAtTheirRequestCountsUntilTheFirstWarmOne() {
    // run o's ttotal: the new instance against the old one per 15 s in service, and the requests
    // it started in each window
    ColdStart c =
        ColdStart.fromWindows(
            List.of(194, 235, 252, 260), List.of(1.357, 1.098, 1.026, 0.872), "ttotal");

    assertThat(c.steps())
        .containsExactly(new ColdStart.Step(194, 1.357), new ColdStart.Step(429, 1.098));
    assertThat(c.factor(193)).isEqualTo(1.357);
    assertThat(c.factor(194)).isEqualTo(1.098);
    assertThat(c.factor(429)).isEqualTo(1.0);
    assertThat(c.rampRequests()).isEqualTo(429);
    assertThat(c.describe())
        .isEqualTo(
            "a new instance's first requests take 1.36x (0-193), 1.10x (194-428) a warm one's time"
                + " (ttotal)");
  }

  @Test
  void fromWindows_aWarmReadingBeforeASlowWindow_isKeptAndTheRampRunsToTheLastSlowOne() {
    // run q's shape: ×1.44, ×1.20, ×1.09, then one window at ×1.04 and the tail still ×1.10
    ColdStart c =
        ColdStart.fromWindows(
            List.of(150, 160, 200, 170, 180, 180),
            List.of(1.44, 1.20, 1.04, 0.97, 1.10, 1.02),
            "x");

    assertThat(c.steps())
        .containsExactly(
            new ColdStart.Step(150, 1.44),
            new ColdStart.Step(310, 1.20),
            new ColdStart.Step(510, 1.04),
            new ColdStart.Step(680, 1.0),
            new ColdStart.Step(860, 1.10));
    assertThat(c.factor(859)).isEqualTo(1.10);
    assertThat(c.factor(860)).isEqualTo(1.0);
  }

  @Test
  void fromWindows_aWindowWithoutAFactorEndsTheRamp_everyWindowWithin5PercentIsNone() {
    assertThat(
            ColdStart.fromWindows(List.of(100, 3, 120), List.of(1.4, Double.NaN, 1.3), "x").steps())
        .containsExactly(new ColdStart.Step(100, 1.4));
    ColdStart warm =
        ColdStart.fromWindows(
            List.of(200, 200, 200), List.of(1.03, 0.96, 1.05), "ttotal measured it warm");
    assertThat(warm.none()).isTrue();
    assertThat(warm.source()).isEqualTo("ttotal measured it warm");
    assertThat(ColdStart.fromWindows(List.of(), List.of(), "x").none()).isTrue();
  }

  @Test
  void fromWindows_countsAndFactorsDisagree_isRefusedNamingBoth() {
    assertThatThrownBy(() -> ColdStart.fromWindows(List.of(1, 2), List.of(1.5), "x"))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("2 request counts but 1 factors");
  }
}
