package dev.speechscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlannerTest {

  private static Plan kokoro() {
    return Planner.plan(
        KokoroExample.measurement(), KokoroExample.scaleOut(), KokoroExample.scenario());
  }

  private static Scenario scenario(double slo, double k, Load peak, Load trough, int floor) {
    return new Scenario(
        slo,
        k,
        peak,
        trough,
        floor,
        0.10,
        60,
        SurgeSimulation.DEFAULT_TRIALS,
        SurgeSimulation.DEFAULT_SEED);
  }

  @Test
  void plan_publishedExample_reproducesThePublishedPolicy() {
    Plan p = kokoro();

    assertThat(p.qMax()).isEqualTo(50);
    assertThat(p.scalingTargetValue()).isCloseTo(37.5, within(1e-9));
    assertThat(p.scaleInThreshold()).isCloseTo(25.0, within(1e-9));
    assertThat(p.scaleOutCooldownSeconds()).isEqualTo(30);
    assertThat(p.scaleInCooldownSeconds()).isEqualTo(960);
    assertThat(p.queueMaxDepth()).isEqualTo(50);
    assertThat(p.minSafeInstances()).isEqualTo(3);
    assertThat(p.wMaxSeconds()).isCloseTo(2.9338649, within(1e-6));
    assertThat(p.tTotalSeconds()).isCloseTo(320.248496, within(1e-9));
    assertThat(p.utilizationMm1()).isCloseTo(0.974, within(5e-4));
    assertThat(p.finding("surge_survival").verdict()).isEqualTo(Verdict.WARN);
    assertThat(p.finding("scale_in_safety").verdict()).isEqualTo(Verdict.WARN);
    assertThat(p.verdict()).isEqualTo(PlanVerdict.warn(2));
    assertThat(p.verdict().label()).isEqualTo("warn (2)");
  }

  @Test
  void plan_publishedExample_sizesTheFleetFromMeasuredThroughputNotThePublishedNine() {
    Plan p = kokoro();

    assertThat(p.throughputAtCScaleMaxPerSecond()).isCloseTo(17.8875, within(1e-9));
    assertThat(p.maxInstances()).isEqualTo(280);
    assertThat(p.minInstances()).isEqualTo(1);
    assertThat(p.naiveMaxInstances()).isEqualTo(9);
    assertThat(p.finding("fleet_capacity").detail()).contains("280 instances").contains("gives 9");
  }

  @Test
  void plan_publishedExample_simulatesTheSurgeAndRecommendsAThreshold() {
    Plan p = kokoro();

    assertThat(p.shedProbability()).isEqualTo(1.0);
    assertThat(p.recommendedCScaleMax()).isNotNull().isBetween(1.0, 10.0);
    assertThat(p.finding("surge_survival").recommendation()).contains("recommended_c_scale_max");
  }

  @Test
  void plan_publishedExample_alarmsAtP95TtfabOfTheLowestRung() {
    assertThat(kokoro().firstChunkAlarmMs()).isCloseTo(65.37, within(0.01));
  }

  @Test
  void plan_findings_areListedWorstFirst() {
    List<Finding> f = kokoro().findings();

    for (int i = 1; i < f.size(); i++) {
      assertThat(f.get(i).verdict().severity())
          .isLessThanOrEqualTo(f.get(i - 1).verdict().severity());
    }
    assertThat(f).hasSize(11);
    assertThat(f.getFirst().verdict()).isEqualTo(Verdict.WARN);
  }

  @Test
  void plan_isDeterministic() {
    assertThat(kokoro()).isEqualTo(kokoro());
  }

  @Test
  void plan_sloDifferingFromTheLadder_isRefused() {
    assertThatThrownBy(() ->
            Planner.plan(
                KokoroExample.measurement(),
                KokoroExample.scaleOut(),
                scenario(2500, 1.25, new Load.RequestRate(5000), null, 1)))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("scenario SLO (2500.0 ms) differs from the ladder's (3000.0 ms)");
  }

  // measurement_trust

  @Test
  void measurementTrust_notFrozen_warns() {
    Measurement m = KokoroExample.measurement();
    Measurement unfrozen =
        new Measurement(
            m.ladder(),
            m.sMeanSeconds(),
            m.sP95Seconds(),
            m.serviceTimes(),
            false,
            true,
            50,
            List.of());

    Finding f = plan(unfrozen).finding("measurement_trust");

    assertThat(f.verdict()).isEqualTo(Verdict.WARN);
    assertThat(f.detail()).contains("not frozen");
  }

  @Test
  void measurementTrust_boundedQueueOrWrongDeclaredQMax_warns() {
    Measurement m = KokoroExample.measurement();

    assertThat(
            plan(new Measurement(
                    m.ladder(),
                    m.sMeanSeconds(),
                    m.sP95Seconds(),
                    m.serviceTimes(),
                    true,
                    false,
                    50,
                    List.of()))
                .finding("measurement_trust")
                .detail())
        .contains("bounded");
    assertThat(
            plan(new Measurement(
                    m.ladder(),
                    m.sMeanSeconds(),
                    m.sP95Seconds(),
                    m.serviceTimes(),
                    true,
                    true,
                    60,
                    List.of()))
                .finding("measurement_trust")
                .detail())
        .contains("states Q_max 60 but its steps give 50");
  }

  @Test
  void measurementTrust_frozenUnbounded_isOk() {
    assertThat(kokoro().finding("measurement_trust").verdict()).isEqualTo(Verdict.OK);
  }

  private static RungDrift rechecked(double againRps, double againP95Ms) {
    // the published ladder's highest coarse rung under Q_max 50 is 50 itself: 17.87 req/s, p95
    // 2805.7 ms
    return new RungDrift(
        50, "at the end of run 1", 245, 17.87, againRps, 2805.66, againP95Ms, 10, 15);
  }

  @Test
  void measurementTrust_driftBeyondTolerance_warnsWithTheFigures() {
    Measurement drifted = KokoroExample.measurement().withDrift(List.of(rechecked(14.6, 3420.0)));

    Plan p = plan(drifted);
    Finding f = p.finding("measurement_trust");

    assertThat(f.verdict()).isEqualTo(Verdict.WARN);
    assertThat(f.detail())
        .contains("the ladder drifted, so Q_max 50 measured the machine as much as the endpoint")
        .contains("N=50 re-measured at the end of run 1, 4m05s after its first measurement")
        .contains("throughput 17.9 -> 14.6 req/s (-18.3 %, tolerance 10 %)")
        .contains("p95 TTFAB 2806 -> 3420 ms (+21.9 %, tolerance 15 %)");
    assertThat(f.recommendation()).contains("quiet machine").doesNotContain("bounded");
    assertThat(p.verdict()).isEqualTo(PlanVerdict.warn(3));
  }

  @Test
  void measurementTrust_driftWithinTolerance_isOkAndSaysSo() {
    Finding f =
        plan(KokoroExample.measurement().withDrift(List.of(rechecked(17.5, 2900.0))))
            .finding("measurement_trust");

    assertThat(f.verdict()).isEqualTo(Verdict.OK);
    assertThat(f.detail())
        .contains("the ladder did not drift: N=50 re-measured at the end of run 1 moved")
        .contains("throughput -2.1 % and p95 +3.4 %, within 10 % and 15 %");
  }

  @Test
  void measurementTrust_driftAndAnUnfrozenLadder_warnsOnceWithBothFixes() {
    Measurement m = KokoroExample.measurement();
    Measurement both =
        new Measurement(
                m.ladder(),
                m.sMeanSeconds(),
                m.sP95Seconds(),
                m.serviceTimes(),
                false,
                true,
                50,
                List.of())
            .withDrift(List.of(rechecked(14.6, 3420.0)));

    Finding f = plan(both).finding("measurement_trust");

    assertThat(f.verdict()).isEqualTo(Verdict.WARN);
    assertThat(f.detail()).contains("not frozen").contains("the ladder drifted");
    assertThat(f.recommendation()).contains("freezes scaling").contains("quiet machine");
  }

  // curve_repeatability

  @Test
  void curveRepeatability_oneRun_isSuppressed() {
    assertThat(kokoro().finding("curve_repeatability").verdict()).isEqualTo(Verdict.SUPPRESSED);
  }

  @Test
  void curveRepeatability_spreadOfExactlyTwentyPercent_isOk_andMore_warns() {
    assertThat(plan(twoRuns(40)).finding("curve_repeatability").verdict()).isEqualTo(Verdict.OK);
    assertThat(plan(twoRuns(39)).finding("curve_repeatability").verdict()).isEqualTo(Verdict.WARN);
  }

  private static Measurement twoRuns(int secondRunQMax) {
    List<Rung> rungs = new ArrayList<>(KokoroExample.rungs(0, 1.0));
    rungs.add(LadderTest.rung(1, secondRunQMax, 2900, true));
    rungs.add(LadderTest.rung(1, 60, 3300, true));
    return KokoroExample.measurement(rungs);
  }

  // slo_budget

  @Test
  void sloBudget_servicePastTheSlo_isInfeasible() {
    Plan p = plan(service(3.0, 3.0));

    assertThat(p.finding("slo_budget").verdict()).isEqualTo(Verdict.INFEASIBLE);
    assertThat(p.verdict()).isEqualTo(PlanVerdict.infeasible());
    assertThat(p.infeasible()).isTrue();
    assertThat(p.findings().getFirst().name()).isEqualTo("slo_budget");
  }

  @Test
  void sloBudget_waitBudgetUnderOneServiceTime_warns_andExactlyOne_isOk() {
    assertThat(plan(service(1.0, 1.5001)).finding("slo_budget").verdict()).isEqualTo(Verdict.WARN);
    assertThat(plan(service(1.0, 1.5)).finding("slo_budget").verdict()).isEqualTo(Verdict.OK);
  }

  private static Measurement service(double mean, double p95) {
    Measurement m = KokoroExample.measurement();
    return new Measurement(
        m.ladder(),
        mean,
        p95,
        ServiceTimeDistribution.lognormal(mean, p95),
        true,
        true,
        50,
        List.of());
  }

  // invocation_ceiling

  @Test
  void invocationCeiling_deadlineAtTheCeiling_isOk_andPast_isInfeasible() {
    Scenario at =
        new Scenario(
            3000,
            1.25,
            new Load.RequestRate(5000),
            null,
            1,
            0.1,
            3.0,
            SurgeSimulation.DEFAULT_TRIALS,
            SurgeSimulation.DEFAULT_SEED);
    Scenario under =
        new Scenario(
            3000,
            1.25,
            new Load.RequestRate(5000),
            null,
            1,
            0.1,
            2.999,
            SurgeSimulation.DEFAULT_TRIALS,
            SurgeSimulation.DEFAULT_SEED);

    assertThat(plan(KokoroExample.measurement(), at).finding("invocation_ceiling").verdict())
        .isEqualTo(Verdict.OK);
    assertThat(plan(KokoroExample.measurement(), under).finding("invocation_ceiling").verdict())
        .isEqualTo(Verdict.INFEASIBLE);
  }

  // queue_depth

  @Test
  void queueDepth_bracketed_isOk_unbracketed_warns_nothingPassing_isInfeasible() {
    List<Rung> noBreach = KokoroExample.rungs(0, 1.0).subList(0, 7);
    List<Rung> allBreach = List.of(LadderTest.rung(0, 1, 3500, true));

    assertThat(kokoro().finding("queue_depth").verdict()).isEqualTo(Verdict.OK);
    assertThat(plan(KokoroExample.measurement(noBreach)).finding("queue_depth").verdict())
        .isEqualTo(Verdict.WARN);
    Plan none = plan(KokoroExample.measurement(allBreach));
    assertThat(none.finding("queue_depth").verdict()).isEqualTo(Verdict.INFEASIBLE);
    assertThat(none.scalingTargetValue()).isNull();
    assertThat(none.maxInstances()).isEqualTo(1);
  }

  // threshold_units

  @Test
  void thresholdUnits_noServerMetrics_suppressesTheThresholds() {
    Plan p = plan(KokoroExample.measurement(KokoroExample.rungs(0, Double.NaN)));

    assertThat(p.finding("threshold_units").verdict()).isEqualTo(Verdict.SUPPRESSED);
    assertThat(p.scalingTargetValue()).isNull();
    assertThat(p.scaleInThreshold()).isNull();
    assertThat(p.scalable()).isFalse();
  }

  @Test
  void thresholdUnits_measuredRatio_convertsBothThresholds() {
    Plan p = plan(KokoroExample.measurement(KokoroExample.rungs(0, 1.4)));

    assertThat(p.scalingTargetValue()).isCloseTo(37.5 * 1.4, within(1e-9));
    assertThat(p.scaleInThreshold()).isCloseTo(25.0 * 1.4, within(1e-9));
    assertThat(p.ratioMax().atConcurrency()).isEqualTo(40);
    assertThat(p.ratioAverage().atConcurrency()).isEqualTo(30);
    assertThat(p.finding("threshold_units").verdict()).isEqualTo(Verdict.OK);
  }

  // surge_survival

  @Test
  void surgeSurvival_shortScaleOut_isOk() {
    ScaleOutTime fast = new ScaleOutTime(0.5, 0, true, List.of(), List.of());

    Plan p = Planner.plan(KokoroExample.measurement(), fast, KokoroExample.scenario());

    assertThat(p.shedProbability()).isLessThanOrEqualTo(0.10);
    assertThat(p.finding("surge_survival").verdict()).isEqualTo(Verdict.OK);
    assertThat(p.recommendedCScaleMax()).isEqualTo(37.5);
  }

  @Test
  void surgeSurvival_warnLine_isTenPercent() {
    assertThat(Scenario.SURGE_WARN_LINE).isEqualTo(0.10);
    assertThat(kokoro().finding("surge_survival").detail()).contains("past the 10% line");
  }

  // scale_in_safety

  @Test
  void scaleInSafety_floorAtNSafe_isOk_andBelow_warns() {
    Plan atThree =
        plan(
            KokoroExample.measurement(),
            scenario(3000, 1.25, new Load.RequestRate(5000), new Load.RequestRate(10), 3));
    Plan atTwo =
        plan(
            KokoroExample.measurement(),
            scenario(3000, 1.25, new Load.RequestRate(5000), new Load.RequestRate(10), 2));

    assertThat(atThree.finding("scale_in_safety").verdict()).isEqualTo(Verdict.OK);
    assertThat(atTwo.finding("scale_in_safety").verdict()).isEqualTo(Verdict.WARN);
    assertThat(atTwo.finding("scale_in_safety").detail()).contains("3->2").contains("37.50");
    assertThat(kokoro().finding("scale_in_safety").detail()).contains("2->1").contains("50.00");
  }

  @Test
  void scaleInSafety_surgeRatioOne_warnsThatNoFleetIsSafe() {
    Plan p =
        plan(KokoroExample.measurement(), scenario(3000, 1.0, new Load.RequestRate(5000), null, 5));

    assertThat(p.minSafeInstances()).isNull();
    assertThat(p.finding("scale_in_safety").verdict()).isEqualTo(Verdict.WARN);
  }

  // fleet_capacity and fleet_cost

  @Test
  void fleetCapacity_noThroughputMeasured_warnsAndAssumesASerialEngine() {
    Plan p = plan(KokoroExample.withoutThroughput());

    assertThat(p.finding("fleet_capacity").verdict()).isEqualTo(Verdict.WARN);
    assertThat(p.maxInstances()).isEqualTo((int) Math.ceil(5000 * KokoroExample.S_MEAN_S));
  }

  @Test
  void fleetCapacity_streams_divideByTheThreshold_andCostComparesToQMax() {
    Plan p =
        plan(
            KokoroExample.measurement(),
            scenario(3000, 1.25, new Load.Streams(375), new Load.Streams(40), 1));

    assertThat(p.maxInstances()).isEqualTo(10);
    assertThat(p.minInstances()).isEqualTo(2);
    assertThat(p.naiveMaxInstances()).isNull();
    assertThat(p.finding("fleet_cost").detail())
        .contains("1.25x")
        .contains("10 instances")
        .contains("against 8 at Q_max 50");
  }

  // provision_stage

  @Test
  void provisionStage_measured_isOk_assumed_warns_missingStages_warn() {
    ScaleOutTime missing = new ScaleOutTime(200, 60, true, List.of(), List.of("instance_logging"));

    assertThat(kokoro().finding("provision_stage").verdict()).isEqualTo(Verdict.OK);
    assertThat(kokoro().finding("provision_stage").detail())
        .contains("desired_set -> instance_logging, 180.8s (56% of T)");
    assertThat(
            Planner.plan(
                    KokoroExample.measurement(),
                    ScaleOutTime.assumed(320),
                    KokoroExample.scenario())
                .finding("provision_stage")
                .verdict())
        .isEqualTo(Verdict.WARN);
    assertThat(
            Planner.plan(KokoroExample.measurement(), missing, KokoroExample.scenario())
                .finding("provision_stage")
                .verdict())
        .isEqualTo(Verdict.WARN);
  }

  @Test
  void verdict_countsWarnings() {
    assertThat(Planner.verdict(List.of(Finding.ok("a", "d")))).isEqualTo(PlanVerdict.ok());
    assertThat(
            Planner.verdict(
                List.of(
                    new Finding("a", Verdict.WARN, "d", null),
                    new Finding("b", Verdict.SUPPRESSED, "d", null))))
        .isEqualTo(PlanVerdict.warn(1));
  }

  private static Plan plan(Measurement m) {
    return plan(m, KokoroExample.scenario());
  }

  private static Plan plan(Measurement m, Scenario s) {
    return Planner.plan(m, KokoroExample.scaleOut(), s);
  }
}
