package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.capacity.Ladder;
import dev.speechscale.capacity.Measurement;
import dev.speechscale.capacity.Rung;
import dev.speechscale.capacity.ServiceTimeDistribution;
import dev.speechscale.scaling.ScaleInAlarm;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** X_sat from the plateau, the first byte by requests held, start-up delays drawn per instance. */
class InstanceModelTest {
  private static final Duration DEADLINE = Duration.ofSeconds(56);

  private static Rung rung(int n, double rps, double ttfabP95Ms, double latencyMeanMs) {
    return new Rung(
        0,
        n,
        n,
        300,
        0,
        rps,
        (double) n,
        ttfabP95Ms,
        latencyMeanMs,
        latencyMeanMs * 1.2,
        null,
        null,
        true,
        null,
        null);
  }

  private static ServiceTimeDistribution constant(double seconds) {
    double[] t = new double[64];
    Arrays.fill(t, seconds);
    return ServiceTimeDistribution.ofQuantiles(t, "constant");
  }

  /**
   * A serial engine: 50 ms requests, 20 req/s alone, 16 req/s once it has a queue (rungs 2..16).
   */
  private static Measurement serial() {
    Ladder ladder =
        Ladder.of(
            List.of(
                rung(1, 20, 30, 50),
                rung(2, 15, 140, 125),
                rung(4, 16, 260, 250),
                rung(8, 17, 500, 470),
                rung(16, 16, 1100, 1000)),
            2000);
    return new Measurement(ladder, 0.05, 0.06, constant(0.05), true, true, null, List.of());
  }

  @Test
  void fromMeasurement_plateau_isTheMedianOfTheRungsAtTwiceTheSlotsNotTheBestRung() {
    InstanceModel m = InstanceModel.fromMeasurement(serial(), 0, DEADLINE, Duration.ofSeconds(10));

    // slots from the peak: round(20 x 0.05) = 1; rungs at N >= 2: 15, 16, 17, 16 -> median 16
    assertThat(m.saturatedPerSecond()).isCloseTo(16, within(1e-9));
    assertThat(m.slots()).isEqualTo(1);
    assertThat(m.derivation()).contains("plateau: median of 4 usable rungs at N >= 2; peak 20");
  }

  @Test
  void fromMeasurement_planPoint_isXSatExactlyAndTheDerivationNamesItAndThePlateau() {
    InstanceModel m =
        InstanceModel.fromMeasurement(
            serial(),
            Optional.empty(),
            new InstanceModel.Saturation.PlanPoint(6.5, 17.5),
            0,
            DEADLINE,
            StartupDelays.fixed(Duration.ZERO));

    // slots = round(17.5 x 0.05) = 1; occupancy scale = 1 / (17.5 x 0.05) so slots/mean = 17.5
    assertThat(m.saturatedPerSecond()).isCloseTo(17.5, within(1e-9));
    assertThat(m.slots()).isEqualTo(1);
    assertThat(m.occupancyScale()).isCloseTo(1 / (17.5 * 0.05), within(1e-12));
    assertThat(m.derivation())
        .contains(
            "X_sat 17.50 req/s (the plan's X(C_scale_max = 6.500); plateau 16.00; peak 20.00)");
  }

  @Test
  void fromMeasurement_given_isXSatExactlyAndTheDerivationSaysWhereItCameFrom() {
    InstanceModel m =
        InstanceModel.fromMeasurement(
            serial(),
            Optional.empty(),
            new InstanceModel.Saturation.Given(19.0, "the warm-up's speed"),
            0,
            DEADLINE,
            StartupDelays.fixed(Duration.ZERO));

    assertThat(m.saturatedPerSecond()).isCloseTo(19.0, within(1e-9));
    assertThat(m.occupancyScale()).isCloseTo(1 / (19.0 * 0.05), within(1e-12));
    assertThat(m.derivation()).contains("X_sat 19.00 req/s (the warm-up's speed; peak 20.00)");
    assertThatThrownBy(() -> new InstanceModel.Saturation.Given(Double.NaN, "nothing"))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("X_sat (NaN req/s, nothing)");
  }

  @Test
  void planPoint_notPositive_isRefusedNamingThePlanField() {
    assertThatThrownBy(() -> new InstanceModel.Saturation.PlanPoint(6.5, 0))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("throughput_at_c_scale_max_rps (0.0)")
        .hasMessageContaining("tts-bench plan");
  }

  @Test
  void fromMeasurement_noRungAtTwiceTheSlots_fallsBackToThePeakAndSaysSo() {
    Ladder ladder = Ladder.of(List.of(rung(1, 20, 30, 50)), 2000);
    Measurement one =
        new Measurement(ladder, 0.05, 0.06, constant(0.05), true, true, null, List.of());

    InstanceModel m = InstanceModel.fromMeasurement(one, 0, DEADLINE, Duration.ZERO);

    assertThat(m.saturatedPerSecond()).isCloseTo(20, within(1e-9));
    assertThat(m.derivation()).contains("highest measured throughput: no usable rung at N >= 2");
  }

  @Test
  void means_closedLoopWait_isTakenOutOfEachRungsMeanTtfab() {
    // rung 4 at 16 req/s: 3 requests ahead, 3/16 = 187.5 ms of wait; 212.5 ms TTFAB -> 25 ms
    List<FirstByte.Point> means =
        FirstByte.means(
            List.of(
                new FirstByte.Rung(1, 0.020, 20),
                new FirstByte.Rung(4, 0.2125, 16),
                new FirstByte.Rung(4, 0.2225, 16),
                new FirstByte.Rung(8, 0.40, 16)),
            1);

    assertThat(means).hasSize(2);
    assertThat(means.get(0).inFlight()).isEqualTo(1);
    assertThat(means.get(0).meanSeconds()).isCloseTo(0.020, within(1e-12));
    // the two rung-4 runs averaged: (25 + 35)/2 = 30 ms; rung 8 (400 - 437.5 < 0) is left out
    assertThat(means.get(1).inFlight()).isEqualTo(4);
    assertThat(means.get(1).meanSeconds()).isCloseTo(0.030, within(1e-12));
  }

  @Test
  void means_noRungPositive_isRefusedNamingTheFix() {
    assertThatThrownBy(() -> FirstByte.means(List.of(new FirstByte.Rung(8, 0.1, 16)), 1))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("re-run tts-bench qmax");
  }

  @Test
  void meanSecondsAt_betweenRungs_interpolatesAndHoldsFlatBeyond() {
    FirstByte.ByConcurrency c =
        new FirstByte.ByConcurrency(
            constant(0.02), List.of(new FirstByte.Point(4, 0.040), new FirstByte.Point(1, 0.010)));

    assertThat(c.meanSecondsAt(1)).isCloseTo(0.010, within(1e-12));
    assertThat(c.meanSecondsAt(2)).isCloseTo(0.020, within(1e-12));
    assertThat(c.meanSecondsAt(0.5)).isCloseTo(0.010, within(1e-12));
    assertThat(c.meanSecondsAt(40)).isCloseTo(0.040, within(1e-12));
  }

  @Test
  void run_firstByteByHeld_anIdleInstanceAnswersFasterThanABusyOne() {
    // constant 0.1 s requests; first byte 10 ms alone, 50 ms with a second request held
    InstanceModel m =
        new InstanceModel(
            1,
            constant(0.1),
            1.0,
            new FirstByte.ByConcurrency(
                constant(0.03),
                List.of(new FirstByte.Point(1, 0.010), new FirstByte.Point(2, 0.050))),
            0,
            DEADLINE,
            StartupDelays.fixed(Duration.ZERO),
            "test",
            RefusalCost.NONE,
            ColdStart.NONE,
            IdleStart.NONE);
    // alone at 0.0; at 1.0 with nobody held; at 2.0 and 2.01 (the second waits 0.09 s, held 1)
    PolicyResult r = run(m, ArrivalTimes.at(0.0, 1.0, 2.0, 2.01));

    // 10 + 10 + 10 + (90 + 50) ms = 170 ms over 4
    assertThat(r.ttfabMeanMs()).isCloseTo(42.5, within(1e-6));
  }

  @Test
  void run_severalStartupDelays_eachNewInstanceDrawsOneAndTheSeedFixesWhich() {
    InstanceModel m =
        new InstanceModel(
            1,
            constant(0.1),
            1.0,
            new FirstByte.Proportional(1.0),
            10,
            DEADLINE,
            new StartupDelays(List.of(Duration.ofSeconds(5), Duration.ofSeconds(40))),
            "test",
            RefusalCost.NONE,
            ColdStart.NONE,
            IdleStart.NONE);
    Traffic t = Traffic.step(30, 1, Duration.ofSeconds(7200));
    List<Long> delays = new ArrayList<>();
    for (long seed = 1; seed <= 12; seed++) {
      PolicyResult r =
          FleetSimulator.run(
              m,
              t,
              Policies.planned(
                  new Policies.PlanNumbers(
                      1,
                      6,
                      5,
                      2,
                      Duration.ofSeconds(30),
                      Duration.ofSeconds(300),
                      5,
                      30,
                      0.1,
                      10,
                      ScaleInAlarm.AVERAGE_60S)),
              new FleetSimulator.Options(3000, Duration.ZERO, seed),
              Progress.none());
      for (PolicyResult.ScalingEvent e : r.events()) {
        if (e.inServiceAtSeconds().isPresent()) {
          delays.add(e.inServiceAtSeconds().getAsLong() - e.decidedAtSeconds());
        }
      }
    }

    assertThat(delays).isNotEmpty().allMatch(d -> d == 5 || d == 40);
    assertThat(delays).contains(5L, 40L);
  }

  @Test
  void run_firstByteCurveAndSeveralDelays_sameSeedGivesEqualResults() {
    InstanceModel m =
        new InstanceModel(
            1,
            ServiceTimeDistribution.lognormal(0.05, 0.07),
            1.2,
            new FirstByte.ByConcurrency(
                ServiceTimeDistribution.lognormal(0.02, 0.035),
                List.of(new FirstByte.Point(1, 0.019), new FirstByte.Point(4, 0.027))),
            14,
            DEADLINE,
            new StartupDelays(List.of(Duration.ofSeconds(7), Duration.ofSeconds(29))),
            "test",
            RefusalCost.NONE,
            ColdStart.NONE,
            IdleStart.NONE);
    Traffic t = Traffic.step(30, 4, Duration.ofSeconds(1800));
    Policy p =
        Policies.planned(
            new Policies.PlanNumbers(
                1,
                4,
                5,
                2,
                Duration.ofSeconds(30),
                Duration.ofSeconds(300),
                5,
                30,
                0.05,
                16,
                ScaleInAlarm.AVERAGE_60S));
    FleetSimulator.Options o =
        new FleetSimulator.Options(1000, Duration.ZERO, 7, new FleetSimulator.PreRoll.Window());

    assertThat(FleetSimulator.run(m, t, p, o, Progress.none()))
        .isEqualTo(FleetSimulator.run(m, t, p, o, Progress.none()));
  }

  @Test
  void startupDelays_negativeOrNone_isRefused() {
    assertThatThrownBy(() -> new StartupDelays(List.of()))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("--ttotal");
    assertThatThrownBy(() -> new StartupDelays(List.of(Duration.ofSeconds(-1))))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("at least 0");
  }

  @Test
  void fromMeasurement_withEvidence_usesTheCurveAndNamesItsShape() {
    FirstByte.Rung[] rungs = {new FirstByte.Rung(1, 0.020, 20), new FirstByte.Rung(2, 0.0917, 15)};

    InstanceModel m =
        InstanceModel.fromMeasurement(
            serial(),
            Optional.of(new InstanceModel.FirstByteEvidence(List.of(rungs), constant(0.02))),
            0,
            DEADLINE,
            StartupDelays.fixed(Duration.ZERO));

    assertThat(m.firstByte()).isInstanceOf(FirstByte.ByConcurrency.class);
    FirstByte.ByConcurrency c = (FirstByte.ByConcurrency) m.firstByte();
    // rung 2: 91.7 ms - 1/15 s = 25.0 ms
    assertThat(c.meanSecondsAt(2)).isCloseTo(0.025, within(1e-4));
    assertThat(m.derivation()).contains("shape: the TTFAB histogram at concurrency 1");
  }

  @Test
  void fromMeasurement_withoutEvidence_keepsTheFirstByteAsAShareOfS() {
    InstanceModel m = InstanceModel.fromMeasurement(serial(), 0, DEADLINE, Duration.ZERO);

    // p95 TTFAB 30 ms / p95 latency 60 ms
    assertThat(m.firstByte()).isEqualTo(new FirstByte.Proportional(0.5));
    assertThat(m.derivation()).contains("the artifact has no TTFAB histograms per rung");
  }

  private static PolicyResult run(InstanceModel m, Traffic t) {
    return FleetSimulator.run(
        m,
        t,
        new Policy.Fixed(1),
        new FleetSimulator.Options(3000, Duration.ZERO, 1),
        Progress.none());
  }
}
