package dev.speechscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The planner's stages, one section each, and the derivation's own sections. */
class DerivationTest {

  private static final Thresholds KOKORO_THRESHOLDS = Thresholds.of(50, 1.25);

  private static Scenario scenario(double k, Load peak, Load trough, int floor) {
    return new Scenario(
        3000,
        k,
        peak,
        trough,
        floor,
        0.10,
        60,
        SurgeSimulation.DEFAULT_TRIALS,
        SurgeSimulation.DEFAULT_SEED);
  }

  // Throughput

  @Test
  void throughputOf_measuredCurve_interpolatesAtBothThresholdsAndTakesThePeakAsCapacity() {
    Derivation.Throughput x = Derivation.Throughput.of(KokoroExample.measurement(), 37.5, 50);

    assertThat(x.measured()).isTrue();
    assertThat(x.atCScaleMaxPerSecond()).isCloseTo(17.8875, within(1e-9));
    assertThat(x.atQMaxPerSecond()).isCloseTo(17.866666666666667, within(1e-12));
    assertThat(x.capacityPerSecond()).isCloseTo(17.916666666666668, within(1e-12));
    assertThat(x.extrapolated()).isFalse();
  }

  @Test
  void throughputOf_thresholdBelowTheFirstRung_isExtrapolatedFromIt() {
    List<Rung> fromTen = new ArrayList<>(KokoroExample.rungs(0, 1.0).subList(2, 8));

    Derivation.Throughput x = Derivation.Throughput.of(KokoroExample.measurement(fromTen), 7.5, 50);

    assertThat(x.extrapolated()).isTrue();
    assertThat(x.atCScaleMaxPerSecond()).isEqualTo(KokoroExample.RPS[2]);
  }

  @Test
  void throughputOf_noThroughputMeasured_assumesASerialEngineEverywhere() {
    Derivation.Throughput x = Derivation.Throughput.of(KokoroExample.withoutThroughput(), 37.5, 50);

    double serial = 1.0 / KokoroExample.S_MEAN_S;
    assertThat(x.measured()).isFalse();
    assertThat(x.atCScaleMaxPerSecond()).isEqualTo(serial);
    assertThat(x.atQMaxPerSecond()).isEqualTo(serial);
    assertThat(x.capacityPerSecond()).isEqualTo(serial);
    assertThat(x.extrapolated()).isFalse();
  }

  // Surge

  @Test
  void surgeOf_thresholdWithinTarget_recommendsItself() {
    SurgeSimulation sim =
        new SurgeSimulation(
            new SurgeSimulation.Model(
                50, 0.1, 17.9, ServiceTimeDistribution.lognormal(0.0613, 0.0661), 1.25, 1000, 1));

    Derivation.Surge surge = Derivation.Surge.of(sim, 37.5, 0.10);

    assertThat(surge.simulation()).isSameAs(sim);
    assertThat(surge.shedProbability())
        .isEqualTo(sim.shedProbability(37.5))
        .isLessThanOrEqualTo(0.10);
    assertThat(surge.recommendedCScaleMax()).isEqualTo(37.5);
  }

  @Test
  void surgeOf_nothingSurvives_recommendsNoThreshold() {
    SurgeSimulation sim =
        new SurgeSimulation(
            new SurgeSimulation.Model(
                2, 1e6, 1.0, ServiceTimeDistribution.lognormal(1.0, 3.0), 1.4, 200, 1));

    Derivation.Surge surge = Derivation.Surge.of(sim, 1.5, 0.01);

    assertThat(surge.shedProbability()).isGreaterThan(0.01);
    assertThat(surge.recommendedCScaleMax()).isNull();
  }

  // Scalable

  @Test
  void scalable_qMaxBelowOne_isRefusedNamingTheUnscalableDerivation() {
    Measurement m = KokoroExample.measurement();
    Scenario s = KokoroExample.scenario();
    ScaleOutTime t = KokoroExample.scaleOut();
    Derivation.Throughput x = Derivation.Throughput.of(m, 37.5, 50);

    assertThatThrownBy(() ->
            new Derivation.Scalable(
                m,
                t,
                s,
                Planner.timing(m, t, s),
                new Plan.QMax(0, false, false),
                Planner.thresholds(m, KOKORO_THRESHOLDS),
                x,
                Planner.fleet(m, s, KOKORO_THRESHOLDS, x.atCScaleMaxPerSecond(), 50),
                1,
                Derivation.Surge.of(Planner.simulation(m, t, s, 50), 37.5, 0.10)))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("Q_max >= 1, got 0")
        .hasMessageContaining("Unscalable");
  }

  // Planner.timing

  @Test
  void timing_kokoro_derivesTheBudgetDeadlineCooldownsAndAlarm() {
    Plan.Timing timing =
        Planner.timing(
            KokoroExample.measurement(), KokoroExample.scaleOut(), KokoroExample.scenario());

    assertThat(timing.wMaxSeconds()).isCloseTo(3.0 - KokoroExample.S_P95_S, within(1e-12));
    assertThat(timing.requestDeadlineSeconds()).isCloseTo(3.0, within(1e-12));
    assertThat(timing.tTotalSeconds()).isCloseTo(320.248496, within(1e-9));
    assertThat(timing.scaleOutCooldownSeconds()).isEqualTo(30);
    assertThat(timing.scaleInCooldownSeconds()).isEqualTo(960);
    assertThat(timing.firstChunkAlarmMs()).isEqualTo(KokoroExample.P95_MS[0]);
  }

  @Test
  void timing_serviceSlowerThanTheSlo_hasNoWaitBudgetAndADeadlineOfOneServiceTime() {
    Measurement m = KokoroExample.measurement();
    Measurement slow =
        new Measurement(
            m.ladder(), 3.5, 4.0, m.serviceTimes(), true, true, m.declaredQMax(), List.of());

    Plan.Timing timing = Planner.timing(slow, KokoroExample.scaleOut(), KokoroExample.scenario());

    assertThat(timing.wMaxSeconds()).isZero();
    assertThat(timing.requestDeadlineSeconds()).isEqualTo(4.0);
  }

  // Planner.thresholds

  @Test
  void thresholds_bothRatiosMeasured_convertsAndRoundsAsTheyDeploy() {
    Plan.Thresholds th =
        Planner.thresholds(
            KokoroExample.measurement(KokoroExample.rungs(0, 0.77771)), KOKORO_THRESHOLDS);

    assertThat(th.cScaleMax()).isEqualTo(37.5);
    assertThat(th.cScaleMin()).isEqualTo(25.0);
    assertThat(th.ratioMax()).isNotNull();
    assertThat(th.ratioMax().atConcurrency()).isEqualTo(40);
    assertThat(th.ratioAverage()).isNotNull();
    assertThat(th.ratioAverage().atConcurrency()).isEqualTo(30);
    assertThat(th.scalingTargetValue()).isEqualTo(29.164);
    assertThat(th.scaleInThreshold()).isEqualTo(19.443);
  }

  @Test
  void thresholds_noServerConcurrencyMeasured_keepsClientUnitsAndConvertsNothing() {
    Plan.Thresholds th =
        Planner.thresholds(
            KokoroExample.measurement(KokoroExample.rungs(0, Double.NaN)), KOKORO_THRESHOLDS);

    assertThat(th.cScaleMax()).isEqualTo(37.5);
    assertThat(th.cScaleMin()).isEqualTo(25.0);
    assertThat(th.ratioMax()).isNull();
    assertThat(th.ratioAverage()).isNull();
    assertThat(th.scalingTargetValue()).isNull();
    assertThat(th.scaleInThreshold()).isNull();
  }

  // Planner.fleet

  @Test
  void fleet_rates_sizeFromThroughputAndShowThePublishedSizing() {
    Plan.Fleet fleet =
        Planner.fleet(
            KokoroExample.measurement(),
            scenario(1.25, new Load.RequestRate(5000), new Load.RequestRate(100), 2),
            KOKORO_THRESHOLDS,
            17.8875,
            50);

    assertThat(fleet.peakInstances()).isEqualTo(280);
    assertThat(fleet.troughInstances()).isEqualTo(6);
    assertThat(fleet.minInstances()).isEqualTo(6);
    assertThat(fleet.maxInstances()).isEqualTo(280);
    assertThat(fleet.minSafeInstances()).isEqualTo(3);
    assertThat(fleet.naiveMaxInstances()).isEqualTo(9);
    assertThat(fleet.queueMaxDepth()).isEqualTo(50);
  }

  @Test
  void fleet_streamsWithoutTrough_keepTheScenarioFloorAndHaveNoPublishedSizing() {
    Plan.Fleet fleet =
        Planner.fleet(
            KokoroExample.measurement(),
            scenario(1.25, new Load.Streams(75), null, 4),
            KOKORO_THRESHOLDS,
            17.8875,
            50);

    assertThat(fleet.peakInstances()).isEqualTo(2);
    assertThat(fleet.troughInstances()).isZero();
    assertThat(fleet.minInstances()).isEqualTo(4);
    assertThat(fleet.maxInstances()).isEqualTo(4);
    assertThat(fleet.naiveMaxInstances()).isNull();
  }

  @Test
  void fleet_noSurgeHeadroom_hasNoSafeFloor() {
    Plan.Fleet fleet =
        Planner.fleet(
            KokoroExample.measurement(),
            scenario(1.0, new Load.RequestRate(50), null, 1),
            Thresholds.of(50, 1.0),
            17.9,
            50);

    assertThat(fleet.minSafeInstances()).isNull();
  }
}
