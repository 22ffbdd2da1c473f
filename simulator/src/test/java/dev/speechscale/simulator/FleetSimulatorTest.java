package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.capacity.ServiceTimeDistribution;
import dev.speechscale.scaling.ScaleInAlarm;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FleetSimulatorTest {
  private static final FleetSimulator.Options OPTIONS =
      new FleetSimulator.Options(3000, Duration.ZERO, 42);

  /** One slot, every request exactly {@code serviceS}, first byte at the end of service. */
  static InstanceModel constant(double serviceS, int depth, Duration deadline, Duration startup) {
    double[] table = new double[64];
    java.util.Arrays.fill(table, serviceS);
    return new InstanceModel(
        1,
        ServiceTimeDistribution.ofQuantiles(table, "constant"),
        1.0,
        1.0,
        depth,
        deadline,
        startup,
        "test");
  }

  private static PolicyResult run(InstanceModel m, Traffic t, Policy p) {
    return FleetSimulator.run(m, t, p, OPTIONS, Progress.none());
  }

  @Test
  void run_gateFull_shedsAtOnceAndKeepsTheAdmitted() {
    InstanceModel m = constant(1.0, 2, Duration.ofSeconds(56), Duration.ZERO);

    PolicyResult r = run(m, ArrivalTimes.at(0.0, 0.1, 0.2, 0.3), new Policy.Fixed(1));

    assertThat(r.served()).isEqualTo(2);
    assertThat(r.shedQueueFull()).isEqualTo(2);
    // 1.0 s, then 0.9 s waiting + 1.0 s: mean 1.45 s
    assertThat(r.ttfabMeanMs()).isCloseTo(1450, within(1e-6));
  }

  @Test
  void run_twoInstances_leastOutstandingSendsTheSecondRequestToTheIdleOne() {
    InstanceModel m = constant(1.0, 0, Duration.ofSeconds(56), Duration.ZERO);

    PolicyResult r = run(m, ArrivalTimes.at(0.0, 0.1, 0.2), new Policy.Fixed(2));

    // 1.0 and 1.0 in parallel, the third waits for the first: 0.8 + 1.0
    assertThat(r.ttfabMeanMs()).isCloseTo((1000 + 1000 + 1800) / 3.0, within(1e-6));
  }

  @Test
  void run_firstByteBeyondDeadline_shedsBeforeStarting() {
    InstanceModel m = constant(1.0, 0, Duration.ofSeconds(2), Duration.ZERO);

    PolicyResult r = run(m, ArrivalTimes.at(0.0, 0.1, 0.2), new Policy.Fixed(1));

    // the third would start at 2.0 s: 1.8 s waiting + 1.0 s first byte > 2 s
    assertThat(r.served()).isEqualTo(2);
    assertThat(r.shedDeadline()).isEqualTo(1);
  }

  @Test
  void run_everyRequest_isServedOrShed() {
    InstanceModel m = constant(0.1, 10, Duration.ofSeconds(56), Duration.ofSeconds(20));
    Traffic t = Traffic.step(30, 2, Duration.ofSeconds(3600));

    for (Policy p : Policies.parse("plan,naive,invocations,cpu,fixed:2", numbers(4))) {
      PolicyResult r = run(m, t, p);
      assertThat(r.served() + r.shed()).as(p.name()).isEqualTo(r.arrived());
      assertThat(r.minutes()).as(p.name()).hasSize(60);
      assertThat(r.minutes().stream().mapToLong(PolicyResult.Minute::arrived).sum())
          .isEqualTo(r.arrived());
    }
  }

  @Test
  void run_sameInputsAndSeed_giveEqualResults() {
    InstanceModel m = constant(0.1, 10, Duration.ofSeconds(56), Duration.ofSeconds(20));
    Traffic t = Traffic.step(30, 2, Duration.ofSeconds(1800));
    Policy p = Policies.planned(numbers(4));

    assertThat(run(m, t, p)).isEqualTo(run(m, t, p));
  }

  static Policies.PlanNumbers numbers(int max) {
    return new Policies.PlanNumbers(
        1,
        max,
        5,
        2,
        Duration.ofSeconds(30),
        Duration.ofSeconds(300),
        5,
        30,
        0.1,
        10,
        ScaleInAlarm.AVERAGE_60S);
  }

  @Test
  void plan_stepSurge_scalesOutAfterTheStartupDelayAndBackInAfterward() {
    InstanceModel m = constant(0.1, 10, Duration.ofSeconds(56), Duration.ofSeconds(20));
    Traffic t = Traffic.step(30, 2, Duration.ofSeconds(3600));

    PolicyResult r = run(m, t, Policies.planned(numbers(4)));

    PolicyResult.ScalingEvent first = r.events().getFirst();
    assertThat(first.decidedAtSeconds()).isBetween(1200L, 1260L);
    assertThat(first.to()).isGreaterThan(first.from());
    assertThat(first.cause()).contains("ConcurrentRequestsPerModel Maximum");
    // the step scale-in alarm still reads the quiet minutes before the surge, so the first
    // scale-out is cancelled a second later (the cooldowns are per direction); the later ones land
    assertThat(r.events().get(1).cause()).startsWith("step scale-in");
    assertThat(first.inServiceAtSeconds()).isEmpty();
    for (PolicyResult.ScalingEvent e : r.events()) {
      if (e.inServiceAtSeconds().isPresent()) {
        assertThat(e.inServiceAtSeconds()).hasValue(e.decidedAtSeconds() + 20);
      }
    }
    assertThat(r.peakInService()).isEqualTo(4);
    assertThat(r.scaleIns()).isPositive();
    assertThat(r.minutes().getLast().meanInService()).isLessThan(4);
  }

  @Test
  void naive_lowCeiling_holdsTheFleetAtMaxAndShedsMore() {
    InstanceModel m = constant(0.1, 10, Duration.ofSeconds(56), Duration.ofSeconds(20));
    Traffic t = Traffic.step(30, 2, Duration.ofSeconds(3600));
    Policies.PlanNumbers n =
        new Policies.PlanNumbers(
            1,
            4,
            5,
            2,
            Duration.ofSeconds(30),
            Duration.ofSeconds(300),
            5,
            30,
            0.1 / 3,
            10,
            ScaleInAlarm.AVERAGE_60S);

    Policy.PublishedSizing naive = Policies.published(n);
    PolicyResult published = run(m, t, naive);
    PolicyResult plan = run(m, t, Policies.planned(n));

    assertThat(naive.maxInstances()).isEqualTo(1); // ceil(30 x 0.0333 / 5) = 1
    assertThat(published.peakInService()).isEqualTo(1);
    assertThat(published.secondsAtMax()).isEqualTo(3600);
    assertThat(published.shedFraction()).isGreaterThan(plan.shedFraction());
  }

  @Test
  void invocations_surge_scalesOutOnInvocationsPerInstance() {
    InstanceModel m = constant(0.1, 10, Duration.ofSeconds(56), Duration.ofSeconds(20));
    Traffic t = Traffic.step(30, 2, Duration.ofSeconds(3600));

    Policy.InvocationsTracking p = Policies.invocations(numbers(8));
    PolicyResult r = run(m, t, p);

    assertThat(p.targetPerInstancePerMinute()).isEqualTo(300); // 10 req/s x 0.5 x 60
    assertThat(r.events().getFirst().cause()).contains("InvocationsPerInstance Sum");
    assertThat(r.peakInService()).isGreaterThan(1);
  }

  @Test
  void cpu_surge_scalesOutOnBusyPercent() {
    InstanceModel m = constant(0.1, 10, Duration.ofSeconds(56), Duration.ofSeconds(20));
    Traffic t = Traffic.step(30, 2, Duration.ofSeconds(3600));

    PolicyResult r = run(m, t, Policies.cpu(numbers(8)));

    assertThat(r.events().getFirst().cause()).contains("CPUUtilization Average");
    assertThat(r.peakInService()).isGreaterThan(1);
  }

  @Test
  void fixed_neverScales() {
    InstanceModel m = constant(0.1, 10, Duration.ofSeconds(56), Duration.ofSeconds(20));

    PolicyResult r = run(m, Traffic.step(30, 2, Duration.ofSeconds(600)), new Policy.Fixed(3));

    assertThat(r.events()).isEmpty();
    assertThat(r.peakInService()).isEqualTo(3);
    assertThat(r.instanceHours()).isCloseTo(3 * 600 / 3600.0, within(1e-9));
  }

  @Test
  void plan_publicationDelay_decidesLater() {
    InstanceModel m = constant(0.1, 10, Duration.ofSeconds(56), Duration.ofSeconds(20));
    Traffic t = Traffic.step(30, 2, Duration.ofSeconds(3600));
    Policy p = Policies.planned(numbers(4));

    PolicyResult local = run(m, t, p);
    PolicyResult cloudWatch =
        FleetSimulator.run(
            m, t, p, new FleetSimulator.Options(3000, Duration.ofSeconds(60), 42), Progress.none());

    assertThat(cloudWatch.events().getFirst().decidedAtSeconds())
        .isGreaterThanOrEqualTo(local.events().getFirst().decidedAtSeconds() + 60);
    assertThat(cloudWatch.shed()).isGreaterThan(local.shed());
  }

  @Test
  void plan_scaleIn_drainsWhatTheInstanceHolds() {
    InstanceModel m = constant(0.5, 0, Duration.ofDays(1), Duration.ZERO);
    Traffic t = Traffic.step(6, 0.5, Duration.ofSeconds(3600));

    PolicyResult r = run(m, t, Policies.planned(numbers(4)));

    assertThat(r.scaleIns()).isPositive();
    assertThat(r.shed()).isZero();
    assertThat(r.served()).isEqualTo(r.arrived());
  }

  @Test
  void parse_planWithAScaleInAlarm_namesItAndRunsThatAlarm() {
    List<Policy> ps = Policies.parse("plan, plan:MAXIMUM_10s", numbers(4));

    assertThat(ps).extracting(Policy::name).containsExactly("plan", "plan:maximum_10s");
    assertThat(((Policy.Planned) ps.get(0)).scaleInAlarm())
        .isEqualTo(dev.speechscale.scaling.ScaleInAlarm.AVERAGE_60S);
    assertThat(((Policy.Planned) ps.get(1)).rules().scaleIn())
        .extracting("statistic", "period")
        .containsExactly(dev.speechscale.scaling.MetricStatistic.MAXIMUM, Duration.ofSeconds(10));
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> Policies.parse("plan:sum_60s", numbers(4)))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("average_60s, maximum_10s");
  }

  @Test
  void parse_unknownOrDuplicate_isRefusedWithTheChoices() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> Policies.parse("plan,magic", numbers(4)))
        .isInstanceOf(SimulatorException.class)
        .hasMessage(
            "--policies: unknown policy 'magic'; choose from plan, plan:average_60s,"
                + " plan:maximum_10s, naive, invocations, cpu, fixed:N (comma-separated)");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> Policies.parse("plan, plan", numbers(4)))
        .hasMessage("--policies names 'plan' twice; name each policy once");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Policies.parse("fixed:x", numbers(4)))
        .hasMessageContaining("'fixed:x' needs a whole number of instances");
  }

  @Test
  void parse_allNames_inOrder() {
    List<Policy> p = Policies.parse("fixed:3,cpu,invocations,naive,plan", numbers(4));

    assertThat(p)
        .extracting(Policy::name)
        .containsExactly("fixed:3", "cpu", "invocations", "naive", "plan");
  }

  @Test
  void rules_timeScaledPlan_decidesOnTheScaledPeriods() {
    InstanceModel m = constant(0.1, 10, Duration.ofSeconds(56), Duration.ofSeconds(20));
    Traffic t = Traffic.step(30, 2, Duration.ofSeconds(3600));
    dev.speechscale.scaling.ScalingRules planned =
        dev.speechscale.scaling.ScalingRules.planned(
            5, 2, 1, 4, Duration.ofSeconds(30), Duration.ofSeconds(300), ScaleInAlarm.AVERAGE_60S);

    PolicyResult real = run(m, t, new Policy.Rules("plan", planned));
    PolicyResult fast = run(m, t, new Policy.Rules("plan-fast", planned.timeScaled(0.1)));

    assertThat(real.events().getFirst().decidedAtSeconds())
        .isEqualTo(run(m, t, Policies.planned(numbers(4))).events().getFirst().decidedAtSeconds());
    // 3 periods of 1 s instead of 10 s: the surge at 1200 s is seen in a few seconds
    assertThat(fast.events().getFirst().decidedAtSeconds()).isBetween(1200L, 1205L);
    assertThat(fast.policy()).isEqualTo("plan-fast");
  }
}
