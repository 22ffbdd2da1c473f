package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.MetricQuery.Metric;
import dev.speechscale.scaling.ScaleInAlarm;
import dev.speechscale.scaling.ScalingRules;
import dev.speechscale.scaling.StepScaleIn;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The screening's scaled-down policy and the search's ranking. */
class CandidateTest {
  private static final Candidate C =
      new Candidate(
          9.375,
          6.25,
          ScaleInAlarm.MAXIMUM_10S,
          30,
          300,
          3,
          280,
          0,
          List.of(),
          Metric.CONCURRENT_REQUESTS_PER_MODEL);

  @Test
  void theScreenedPolicyDividesTheFleetAndMultipliesTheScaleInCooldown() {
    ScalingRules r = ((Policy.Rules) C.screened("c1", 10)).rules();
    assertThat(r.minCapacity()).isEqualTo(1); // round(0.3), at least 1
    assertThat(r.maxCapacity()).isEqualTo(28);
    assertThat(r.tracking().targetValue()).isEqualTo(9.375);
    assertThat(r.tracking().scaleOutCooldown()).isEqualTo(Duration.ofSeconds(30));
    StepScaleIn in = (StepScaleIn) r.scaleIn();
    assertThat(in.cooldown()).isEqualTo(Duration.ofSeconds(3000));
    assertThat(in.threshold()).isEqualTo(6.25);
    ScalingRules full = ((Policy.Rules) C.policy("c1")).rules();
    assertThat(full.minCapacity()).isEqualTo(3);
    assertThat(full.maxCapacity()).isEqualTo(280);
    assertThat(((StepScaleIn) full.scaleIn()).cooldown()).isEqualTo(Duration.ofSeconds(300));
  }

  @Test
  void theFloorsGoOnTheEnginesRules_dividedForTheScreening() {
    Candidate c =
        C.withFloors(0.8, List.of(new Floors.Floor(6 * 3600, 40), new Floors.Floor(20 * 3600, 3)));
    ScalingRules full = ((Policy.Rules) c.policy("c2")).rules();
    assertThat(full.minCapacityAt(7 * 3600_000L)).isEqualTo(40);
    assertThat(full.minCapacityAt(21 * 3600_000L)).isEqualTo(3);
    assertThat(full.minCapacityAt(86_400_000L + 3600_000L)).isEqualTo(3); // 01:00 next day
    ScalingRules screened = ((Policy.Rules) c.screened("c2", 10)).rules();
    assertThat(screened.minCapacityAt(7 * 3600_000L)).isEqualTo(4);
    assertThat(screened.minCapacityAt(21 * 3600_000L)).isEqualTo(1);
  }

  @Test
  void theSearchNeverTriesTheFightingAlarm_unlessThePlanDeploysIt() {
    Policies.PlanNumbers legacy =
        new Policies.PlanNumbers(
            1,
            280,
            37.5,
            25,
            Duration.ofSeconds(30),
            Duration.ofSeconds(960),
            37.5,
            5000,
            0.056,
            17.9,
            ScaleInAlarm.AVERAGE_60S);
    Policies.PlanNumbers fixed = legacy.withScaleInAlarm("maximum_10s");

    assertThat(SearchSpace.around(fixed, 3, true).alarms())
        .containsExactly(ScaleInAlarm.MAXIMUM_10S);
    assertThat(SearchSpace.around(legacy, 3, true).alarms())
        .containsExactly(legacy.scaleInAlarm(), ScaleInAlarm.MAXIMUM_10S);
  }

  @Test
  void thePlansOwnScaleInShareIsTriedExactly_notAsARoundedNeighbour() {
    Policies.PlanNumbers plan =
        new Policies.PlanNumbers(
            1,
            280,
            37.5,
            25,
            Duration.ofSeconds(30),
            Duration.ofSeconds(960),
            37.5,
            5000,
            0.056,
            17.9,
            ScaleInAlarm.AVERAGE_60S);
    SearchSpace space = SearchSpace.around(plan, 3, true);
    Candidate start = Rival.planned(Policies.planned(plan), 280);
    List<Candidate> thresholds =
        space.dimensions(c -> c).stream()
            .filter(d -> d.name().equals("scale-in threshold"))
            .findFirst()
            .orElseThrow()
            .moves()
            .apply(start);
    assertThat(thresholds)
        .extracting(Candidate::scaleInThreshold)
        .containsExactly(25.0, 18.75, 30.0);
    assertThat(thresholds.getFirst().key()).isEqualTo(start.key());
  }

  @Test
  void eachDimensionMovesOneSettingOfTheStart_theOthersKept() {
    Policies.PlanNumbers plan =
        new Policies.PlanNumbers(
                1,
                280,
                37.5,
                25,
                Duration.ofSeconds(30),
                Duration.ofSeconds(960),
                37.5,
                5000,
                0.056,
                17.9,
                ScaleInAlarm.AVERAGE_60S)
            .withScaleInAlarm("maximum_10s");
    SearchSpace space = SearchSpace.around(plan, 3, true);
    Candidate start = Rival.planned(Policies.planned(plan), 280);
    Candidate inv = space.invocationsStart(plan);
    List<String> moves = new java.util.ArrayList<>();
    for (SearchSpace.Dimension d : space.dimensions(c -> c)) {
      moves.add(d.name() + ": " + d.moves().apply(start).stream().map(Candidate::key).toList());
    }
    for (SearchSpace.Dimension d : space.invocationDimensions(c -> c)) {
      moves.add(d.name() + ": " + d.moves().apply(inv).stream().map(Candidate::key).toList());
    }
    String k = "t37.5/in25/maximum_10s/cd30-960/1-280/f0";
    String i = "inv537/cd300-300/1-280/f0";
    assertThat(moves)
        .containsExactly(
            "target: ["
                + k
                + ", t28.125/in18.75/maximum_10s/cd30-960/1-280/f0,"
                + " t18.75/in12.5/maximum_10s/cd30-960/1-280/f0,"
                + " t9.375/in6.25/maximum_10s/cd30-960/1-280/f0,"
                + " t3.75/in2.5/maximum_10s/cd30-960/1-280/f0]",
            "scale-in cooldown: ["
                + k
                + ", t37.5/in25/maximum_10s/cd30-600/1-280/f0,"
                + " t37.5/in25/maximum_10s/cd30-300/1-280/f0,"
                + " t37.5/in25/maximum_10s/cd30-120/1-280/f0,"
                + " t37.5/in25/maximum_10s/cd30-60/1-280/f0]",
            "scale-in threshold: ["
                + k
                + ", t37.5/in18.75/maximum_10s/cd30-960/1-280/f0,"
                + " t37.5/in30/maximum_10s/cd30-960/1-280/f0]",
            "scale-in alarm: [" + k + "]",
            "scale-out cooldown: [" + k + ", t37.5/in25/maximum_10s/cd60-960/1-280/f0]",
            "min: [" + k + ", t37.5/in25/maximum_10s/cd30-960/3-280/f0]",
            "max: [" + k + ", t37.5/in25/maximum_10s/cd30-960/1-336/f0]",
            "scheduled floors: ["
                + k
                + ", t37.5/in25/maximum_10s/cd30-960/1-280/f0.5,"
                + " t37.5/in25/maximum_10s/cd30-960/1-280/f0.8,"
                + " t37.5/in25/maximum_10s/cd30-960/1-280/f1]",
            "invocations target: ["
                + i
                + ", inv644.4/cd300-300/1-280/f0,"
                + " inv751.8/cd300-300/1-280/f0]",
            "invocations scale-in cooldown: ["
                + i
                + ", inv537/cd300-120/1-280/f0,"
                + " inv537/cd300-60/1-280/f0]",
            "invocations scale-out cooldown: [" + i + ", inv537/cd60-300/1-280/f0]",
            "invocations scheduled floors: ["
                + i
                + ", inv537/cd300-300/1-280/f0.5,"
                + " inv537/cd300-300/1-280/f0.8, inv537/cd300-300/1-280/f1]");
    assertThat(
            space.dimensions(c -> c).getFirst().moves().apply(start).stream()
                .map(Candidate::metric)
                .distinct())
        .containsExactly(Metric.CONCURRENT_REQUESTS_PER_MODEL);
  }

  @Test
  void theDescriptionSpellsTheDeployedNumbers() {
    assertThat(C.description())
        .isEqualTo(
            "ConcurrentRequestsPerModel Maximum > 9.375 (10 s x 3), step scale-in at Maximum <="
                + " 6.25 (10 s x 3), cooldowns 30 s out / 300 s in, 3..280 instances, scheduled"
                + " floors: none");
    Candidate inv =
        new Candidate(
            644.4,
            25,
            ScaleInAlarm.MAXIMUM_10S,
            60,
            120,
            1,
            280,
            0.5,
            List.of(new Floors.Floor(6 * 3600, 40)),
            Metric.INVOCATIONS_PER_INSTANCE);
    assertThat(inv.description())
        .isEqualTo(
            "InvocationsPerInstance target tracking at 644.4 per instance per minute (Sum, 60 s;"
                + " scale-in enabled, no step policy), cooldowns 60 s out / 120 s in, 1..280"
                + " instances, scheduled floors: 06:00 40");
  }

  @Test
  void meetingTheGoalRanksFirst_thenTheCheaper_elseTheHigherAttainment() {
    SearchGoal goal = new SearchGoal(0.999, 0.001);
    PolicySearch.Tried cheapMiss = tried("a", 3000, 0.998, 0);
    PolicySearch.Tried dearMeet = tried("b", 5000, 0.9995, 0.0002);
    PolicySearch.Tried cheapMeet = tried("c", 4000, 0.9991, 0);
    PolicySearch.Tried worseMiss = tried("d", 1000, 0.95, 0.04);
    assertThat(PolicySearch.better(dearMeet, cheapMiss, goal)).isTrue();
    assertThat(PolicySearch.better(cheapMeet, dearMeet, goal)).isTrue();
    assertThat(PolicySearch.better(cheapMiss, worseMiss, goal)).isTrue();
    assertThat(PolicySearch.better(cheapMeet, cheapMeet, goal)).isFalse();
  }

  @Test
  void theAutoScaleLeavesTheBusiestMinuteAtLeast25Instances() {
    RateTable day = new RateTable(new double[] {10, 5000, 10}, 180);
    // 5000 / 17.9 = 279.3 instances: 279.3 / 25 = 11.2 -> 11
    assertThat(PolicySearch.autoScale(day, 17.9)).isEqualTo(11);
    assertThat(PolicySearch.autoScale(new RateTable(new double[] {200}, 60), 17.9)).isEqualTo(1);
  }

  private static PolicySearch.Tried tried(String name, double cost, double slo, double shed) {
    return new PolicySearch.Tried(name, "x", C, new Outcome(cost, slo, shed, 100, 200, 0, 1, 1));
  }

  @Test
  void anInvocationsCandidateIsTargetTrackingInBothDirections_itsCooldownNotMultiplied() {
    Candidate inv =
        new Candidate(
            644.4,
            25,
            ScaleInAlarm.MAXIMUM_10S,
            60,
            120,
            1,
            280,
            0,
            List.of(),
            dev.speechscale.platform.MetricQuery.Metric.INVOCATIONS_PER_INSTANCE);
    ScalingRules full = ((Policy.Rules) inv.policy("c20")).rules();
    assertThat(full.tracking().metric())
        .isEqualTo(dev.speechscale.platform.MetricQuery.Metric.INVOCATIONS_PER_INSTANCE);
    assertThat(full.tracking().targetValue()).isEqualTo(644.4);
    assertThat(full.tracking().period()).isEqualTo(Duration.ofSeconds(60));
    assertThat(full.disableScaleIn()).isFalse();
    assertThat(full.scaleIn()).isInstanceOf(dev.speechscale.scaling.ScaleIn.Tracking.class);
    ScalingRules screened = ((Policy.Rules) inv.screened("c20", 10)).rules();
    assertThat(screened.maxCapacity()).isEqualTo(28);
    assertThat(((dev.speechscale.scaling.ScaleIn.Tracking) screened.scaleIn()).cooldown())
        .isEqualTo(Duration.ofSeconds(120));
    assertThat(inv.key()).isNotEqualTo(C.key()).startsWith("inv644.4/");
    assertThat(inv.description()).startsWith("InvocationsPerInstance target tracking at 644.4");
  }
}
