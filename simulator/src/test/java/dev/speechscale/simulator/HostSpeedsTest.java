package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostSpeedsTest {
  private static final FleetSimulator.Options OPTIONS =
      new FleetSimulator.Options(3000, Duration.ZERO, 42);

  private static final InstanceModel ONE_SECOND =
      FleetSimulatorTest.constant(1.0, 0, Duration.ofSeconds(56), Duration.ZERO);

  private static PolicyResult run(HostSpeeds speeds, Traffic t, Policy p) {
    return FleetSimulator.run(ONE_SECOND, t, p, OPTIONS.withHostSpeeds(speeds), Progress.none());
  }

  @Test
  void factor_byLaunchAndSecond_launchesGoRoundTheHostsAndTheEndsHold() {
    HostSpeeds s = new HostSpeeds(List.of(new double[] {1, 2, 3}, new double[] {5}), "test");

    assertThat(s.factor(0, 0.0)).isEqualTo(1);
    assertThat(s.factor(0, 1.999)).isEqualTo(2);
    assertThat(s.factor(0, 2.0)).isEqualTo(3);
    assertThat(s.factor(0, 99)).as("past the last second, the last holds").isEqualTo(3);
    assertThat(s.factor(0, -5)).as("before 0, the first holds").isEqualTo(1);
    assertThat(s.factor(1, 1.5)).isEqualTo(5);
    assertThat(s.factor(2, 1.5)).as("the third launch is back on host 0").isEqualTo(2);
    assertThat(HostSpeeds.NONE.factor(7, 3)).isEqualTo(1);
  }

  @Test
  void factor_firstAndNextHost_launchesFollowTheNextRoundRobin() {
    // the instance in service on host 1, and the platform's next launch on host 1 again (an
    // instance launched and stopped in between took host 0's turn)
    HostSpeeds s =
        new HostSpeeds(List.of(new double[] {1}, new double[] {2}, new double[] {3}), 1, 1, "t");

    assertThat(s.factor(0, 0)).isEqualTo(2);
    assertThat(s.factor(1, 0)).isEqualTo(2);
    assertThat(s.factor(2, 0)).isEqualTo(3);
    assertThat(s.factor(3, 0)).isEqualTo(1);
    assertThat(s.factor(4, 0)).isEqualTo(2);
  }

  @Test
  void new_hostOutOfRange_namesBoth() {
    assertThatThrownBy(() -> new HostSpeeds(List.of(new double[] {1}), 0, 1, "probe"))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("(0) and the next one's (1)")
        .hasMessageContaining("0 to 0");
  }

  @Test
  void new_badFactor_namesHostSecondAndValue() {
    assertThatThrownBy(
            () -> new HostSpeeds(List.of(new double[] {1}, new double[] {1, 0}), "probe.txt"))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("host 1")
        .hasMessageContaining("second 1")
        .hasMessageContaining("(0.0)")
        .hasMessageContaining("probe.txt");
    assertThatThrownBy(() -> new HostSpeeds(List.of(new double[0]), "probe.txt"))
        .hasMessageContaining("host 0's speed series is empty");
    assertThatThrownBy(() -> new HostSpeeds(List.of(new double[] {Double.NaN}), "p"))
        .hasMessageContaining("finite and positive");
  }

  @Test
  void new_copiesTheSeries_soTheCallerCannotChangeIt() {
    double[] f = {1, 2};
    HostSpeeds s = new HostSpeeds(List.of(f), "test");
    f[1] = 9;
    s.factorsBySecond().get(0)[1] = 9;

    assertThat(s.factor(0, 1)).isEqualTo(2);
    assertThat(s).isEqualTo(new HostSpeeds(List.of(new double[] {1, 2}), "test"));
  }

  @Test
  void run_halfSpeedHost_takesTwiceAsLong() {
    // one instance, one slot, 1 s per request at the model's speed; the host runs at half speed
    // until t = 2, so the request started at 0 takes 2 s and the one started at 2 (queued from 0.5)
    // takes 1 s: TTFAB 2.0 and 2.0 - 0.5 + 1.0 = 2.5
    HostSpeeds half = new HostSpeeds(List.of(new double[] {2, 2, 1}), "test");

    PolicyResult r = run(half, ArrivalTimes.at(0.0, 0.5), new Policy.Fixed(1));

    assertThat(r.ttfabMeanMs()).isCloseTo((2000 + 2500) / 2.0, within(1e-6));
  }

  @Test
  void run_twoHosts_eachInstanceRunsAtItsOwnHostsSpeed() {
    // two instances: the first launched on host 0 (speed as measured), the second on host 1 (a
    // third of it); least outstanding sends the first request to instance 0, the second to 1
    HostSpeeds s = new HostSpeeds(List.of(new double[] {1}, new double[] {3}), "test");

    PolicyResult r = run(s, ArrivalTimes.at(0.0, 0.1), new Policy.Fixed(2));

    assertThat(r.ttfabMeanMs()).isCloseTo((1000 + 3000) / 2.0, within(1e-6));
  }

  @Test
  void run_noHostSpeeds_isTheRunWithout() {
    Traffic t = Traffic.step(30, 2, Duration.ofSeconds(600));
    Policy p = new Policy.Fixed(3);

    PolicyResult with = run(new HostSpeeds(List.of(new double[] {1}), "ones"), t, p);
    PolicyResult without = FleetSimulator.run(ONE_SECOND, t, p, OPTIONS, Progress.none());

    assertThat(with).isEqualTo(without);
  }
}
