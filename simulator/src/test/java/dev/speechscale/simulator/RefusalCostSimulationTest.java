package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.capacity.ServiceTimeDistribution;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The instance model spending capacity on refusals. */
class RefusalCostSimulationTest {
  private static final FleetSimulator.Options OPTIONS =
      new FleetSimulator.Options(3000, Duration.ZERO, 5);

  private static InstanceModel serial(ServiceTimeDistribution s, int depth) {
    return new InstanceModel(
        1, s, 1.0, 1.0, depth, Duration.ofDays(1), Duration.ZERO, "refusal-cost test");
  }

  private static ServiceTimeDistribution constant(double seconds) {
    double[] table = new double[64];
    Arrays.fill(table, seconds);
    return ServiceTimeDistribution.ofQuantiles(table, "constant");
  }

  private static PolicyResult run(InstanceModel m, Traffic t) {
    return FleetSimulator.run(m, t, new Policy.Fixed(1), OPTIONS, Progress.none());
  }

  @Test
  void run_twoRefusals_delayTheNextAdmittedRequestByTheirCost() {
    // 1 s requests, depth 2: 0.0 and 0.1 admitted (the second starts at 1.0, ends at 2.0); 0.2
    // and 0.3 refused, each taking 0.5 s: the slot frees at 3.0, not 2.0; 1.5 (after the first
    // ended) starts at 3.0: TTFAB 1.0, 1.9, 2.5 s
    InstanceModel m = serial(constant(1.0), 2).withRefusalCost(new RefusalCost(0.5, "hand-worked"));

    PolicyResult r = run(m, ArrivalTimes.at(0.0, 0.1, 0.2, 0.3, 1.5));

    assertThat(r.served()).isEqualTo(3);
    assertThat(r.shedQueueFull()).isEqualTo(2);
    assertThat(r.ttfabMeanMs()).isCloseTo(1800, within(1e-6));
  }

  @Test
  void run_sameArrivalsWithoutCost_startTheNextWhenTheSlotFrees() {
    PolicyResult r = run(serial(constant(1.0), 2), ArrivalTimes.at(0.0, 0.1, 0.2, 0.3, 1.5));

    // 1.5 starts at 2.0: TTFAB 1.0, 1.9, 1.5 s
    assertThat(r.ttfabMeanMs()).isCloseTo(4400.0 / 3, within(1e-6));
  }

  @Test
  void run_saturatedForTenHoursRefusingAtACost_servesTheClosedForm() {
    // X_sat 1/0.07 = 14.29 req/s (lognormal service, mean 70 ms), Poisson arrivals at 22 req/s,
    // queue_max_depth 13, 10 ms per refusal
    ServiceTimeDistribution s = ServiceTimeDistribution.lognormal(0.07, 0.09);
    RefusalCost cost = new RefusalCost(0.010, "test");
    InstanceModel m = serial(s, 13).withRefusalCost(cost);
    double xSat = m.saturatedPerSecond();
    double seconds = 36_000;

    PolicyResult r = run(m, Traffic.constant(22, Duration.ofSeconds((long) seconds)));

    double served = r.served() / seconds;
    double refused = r.shedQueueFull() / seconds;
    assertThat(r.shedDeadline()).isZero();
    // the brief's closed form, c at the run's own refusal rate
    assertThat(served).isCloseTo(xSat / (1 + cost.hyperbolicC(refused) * refused), within(0.02));
    // and from the offered rate alone (λ fluctuates: ±0.1 % over 792,000 arrivals)
    assertThat(served).isCloseTo(cost.servedAtOfferedRate(xSat, 22), within(0.05));
    // well below X_sat: the cost is visible
    assertThat(served).isLessThan(xSat - 1);
  }

  @Test
  void run_saturatedWithoutCost_servesXSat() {
    ServiceTimeDistribution s = ServiceTimeDistribution.lognormal(0.07, 0.09);
    InstanceModel m = serial(s, 13);

    PolicyResult r = run(m, Traffic.constant(22, Duration.ofSeconds(36_000)));

    assertThat(r.served() / 36_000.0).isCloseTo(m.saturatedPerSecond(), within(0.02));
  }

  @Test
  void withRefusalCost_none_isTheSameModelAndTheSameRun() {
    InstanceModel m = serial(ServiceTimeDistribution.lognormal(0.07, 0.09), 13);
    Traffic t = Traffic.step(30, 5, Duration.ofSeconds(900));

    InstanceModel same = m.withRefusalCost(RefusalCost.NONE);

    assertThat(same).isEqualTo(m);
    assertThat(run(same, t)).isEqualTo(run(m, t));
  }

  @Test
  void withRefusalCost_saysSoInTheDerivation() {
    InstanceModel m =
        serial(constant(0.1), 4).withRefusalCost(new RefusalCost(0.0012, "validate v.json"));

    assertThat(m.derivation())
        .isEqualTo(
            "refusal-cost test; each 503 at queue_max_depth takes 1.200 ms of the instance"
                + " (validate v.json)");
  }
}
