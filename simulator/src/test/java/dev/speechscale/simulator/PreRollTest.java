package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.scaling.ScaleInAlarm;
import dev.speechscale.scaling.ScalingRules;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pre-roll: a warm history before t = 0 that reproduces the live fleet's state (the plan's
 * scale-in alarm already in ALARM after a quiet spell) and counts nothing.
 */
class PreRollTest {
  private static final long SEED = 7;

  /** Quiet (0.2 req/s) for a minute, then a surge (10 req/s) until 240 s. */
  private static Traffic quietThenSurge() {
    return Traffic.csv("surge.csv", () -> "time_s,rps\n0,0.2\n60,10\n240,0\n".lines());
  }

  /**
   * The plan's rules: target tracking on Maximum concurrency over 3 × 10 s above 7.5, scale-out
   * cooldown 30 s; step scale-in on Average concurrency over 3 × 60 s at or below 5, cooldown 300
   * s; 1 to 2 instances.
   */
  private static Policy planned() {
    return new Policy.Rules(
        "plan",
        ScalingRules.planned(
            7.5,
            5.0,
            1,
            2,
            Duration.ofSeconds(30),
            Duration.ofSeconds(300),
            ScaleInAlarm.AVERAGE_60S));
  }

  /** One slot, 1 s per request: the surge's 10 req/s fills the queue of 20 within seconds. */
  private static InstanceModel model() {
    return FleetSimulatorTest.constant(1.0, 20, Duration.ofSeconds(56), Duration.ofSeconds(20));
  }

  private static PolicyResult run(Traffic t, Policy p, FleetSimulator.PreRoll preRoll) {
    return FleetSimulator.run(
        model(),
        t,
        p,
        new FleetSimulator.Options(3000, Duration.ZERO, SEED, preRoll),
        Progress.none());
  }

  private static List<String> timeline(PolicyResult r) {
    return r.events().stream()
        .map(e ->
            e.decidedAtSeconds()
                + " "
                + e.from()
                + "->"
                + e.to()
                + (e.inServiceAtSeconds().isPresent()
                    ? " in service " + e.inServiceAtSeconds().getAsLong()
                    : ""))
        .toList();
  }

  @Test
  void window_planRules_isTheScaleInAlarmsThreeMinutesPlusTheDelayInWholePeriods() {
    assertThat(Scalers.longestWindowSeconds(planned(), Duration.ZERO)).isEqualTo(180);
    assertThat(Scalers.longestWindowSeconds(planned(), Duration.ofSeconds(61))).isEqualTo(300);
    assertThat(Scalers.longestWindowSeconds(new Policy.Fixed(2), Duration.ZERO)).isZero();
  }

  @Test
  void run_noPreRoll_firstScaleOutStands() {
    PolicyResult r = run(quietThenSurge(), planned(), new FleetSimulator.PreRoll.None());

    // The high alarm's periods [60,70) [70,80) [80,90) all exceed 7.5 at 90 s; the scale-in alarm
    // has no data before t = 0, so it is INSUFFICIENT_DATA until 180 s, and then OK (the surge).
    // The second instance starts 20 s after 90.
    assertThat(timeline(r)).containsExactly("90 1->2 in service 110");
  }

  @Test
  void run_preRollWindow_scaleInUndoesTheFirstScaleOutAndCapacityComesAfterTheCooldown() {
    PolicyResult r = run(quietThenSurge(), planned(), new FleetSimulator.PreRoll.Window());

    // 90 s: high alarm ALARM -> 1 to 2 (out wins over the scale-in alarm, which is ALARM on the
    //   pre-roll's and the quiet minute's periods [-120,-60) [-60,0) [0,60)).
    // 91 s: scale-out inside its 30 s cooldown; the step scale-in has never acted -> 2 to 1, the
    //   starting instance is cancelled.
    // 120 s: cooldown over (120 - 90 = 30) -> 1 to 2; the scale-in alarm's newest period [60,120)
    //   is the surge's, so it is OK from here on. In service at 120 + 20.
    assertThat(timeline(r)).containsExactly("90 1->2", "91 2->1", "120 1->2 in service 140");
    assertThat(r.events().get(1).cause()).startsWith("step scale-in");
  }

  @Test
  void run_preRoll_countsNothingAndLeavesTheArrivalsAlone() {
    Traffic t = quietThenSurge();
    PolicyResult without = run(t, planned(), new FleetSimulator.PreRoll.None());
    PolicyResult with = run(t, planned(), new FleetSimulator.PreRoll.Window());

    assertThat(with.arrived()).isEqualTo(without.arrived()).isEqualTo(t.countArrivals(SEED));
    assertThat(with.served() + with.shedQueueFull() + with.shedDeadline() + with.shedNoInstance())
        .isEqualTo(with.arrived());
    assertThat(with.minutes().stream().mapToLong(PolicyResult.Minute::arrived).sum())
        .isEqualTo(with.arrived());
    assertThat(with.minutes()).hasSize(4);
    for (int m = 0; m < 4; m++) {
      assertThat(with.minutes().get(m).arrived()).isEqualTo(without.minutes().get(m).arrived());
    }
  }

  @Test
  void run_scaleOutDuringPreRoll_actsOnTheFleetButIsNotReported() {
    Traffic t = Traffic.constant(10, Duration.ofSeconds(120));

    // Pre-roll of 40 s at 10 req/s: the high alarm's three 10 s periods [-40,-10) are full at
    // -10 s -> 1 to 2, in service at +10 s; the event is the pre-roll's and is not reported.
    PolicyResult r = run(t, planned(), new FleetSimulator.PreRoll.Fixed(Duration.ofSeconds(40)));

    assertThat(r.events()).isEmpty();
    assertThat(r.scaleOuts()).isZero();
    assertThat(r.peakInService()).isEqualTo(2);
    assertThat(r.minutes().get(0).maxInService()).isEqualTo(2);
    assertThat(r.arrived()).isEqualTo(t.countArrivals(SEED));
  }

  /**
   * {@code seconds} recorded seconds before t = 0: NaN for the first {@code none}, then {@code v}.
   */
  private static FleetSimulator.PreRoll.Recorded recorded(int seconds, int none, double v) {
    List<Double> c = new java.util.ArrayList<>();
    for (int i = 0; i < seconds; i++) {
      c.add(i < none ? Double.NaN : v);
    }
    return new FleetSimulator.PreRoll.Recorded(c, "test");
  }

  @Test
  void run_recordedHistoryWithOnlyTheLastMinute_scaleInAlarmLacksDataLikeTheLiveOne() {
    // The live endpoint came into service 60 s before the trace: [-120,-60) has no datapoint, so
    // at 90 s the scale-in alarm is INSUFFICIENT_DATA and the first scale-out stands (as with no
    // pre-roll), where a simulated 180 s window would have let the scale-in undo it at 91 s.
    PolicyResult r = run(quietThenSurge(), planned(), recorded(180, 120, 0.5));

    assertThat(timeline(r)).containsExactly("90 1->2 in service 110");
  }

  @Test
  void run_recordedQuietHistory_actsAsTheSimulatedWindow() {
    PolicyResult r = run(quietThenSurge(), planned(), recorded(180, 0, 0.5));

    assertThat(timeline(r)).containsExactly("90 1->2", "91 2->1", "120 1->2 in service 140");
  }

  @Test
  void run_recordedBusyHistory_highAlarmReadsItAtTheStart() {
    // 8 in flight per instance for the last 30 s: the high alarm's periods [-30,0) all exceed 7.5
    // at t = 0, so the fleet scales out at once; the scale-in alarm (Average 8 > 5) stays OK.
    PolicyResult r = run(quietThenSurge(), planned(), recorded(180, 150, 8));

    assertThat(timeline(r)).containsExactly("0 1->2 in service 20");
  }

  @Test
  void run_recordedHistory_countsNothingAndIsLabelledLive() {
    Traffic t = quietThenSurge();
    FleetSimulator.PreRoll.Recorded h = recorded(180, 0, 0.5);

    PolicyResult r = run(t, planned(), h);

    assertThat(r.arrived()).isEqualTo(t.countArrivals(SEED));
    assertThat(h.label()).isEqualTo("live");
    assertThat(h.seconds(planned(), Duration.ZERO)).isEqualTo(180);
  }

  @Test
  void recorded_negativeSample_isRefusedNamingTheSecondAndTheSource() {
    assertThatThrownBy(() -> recorded(10, 0, -1))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("second -10")
        .hasMessageContaining("(-1.0)")
        .hasMessageContaining("test");
  }

  @Test
  void run_sameSeed_sameResult() {
    FleetSimulator.PreRoll p = new FleetSimulator.PreRoll.Window();

    assertThat(run(quietThenSurge(), planned(), p)).isEqualTo(run(quietThenSurge(), planned(), p));
  }

  @Test
  void fixed_fractionOfASecond_isRefusedWithTheRule() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new FleetSimulator.PreRoll.Fixed(Duration.ofMillis(1500)))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("--pre-roll (PT1.5S) must be a whole number of seconds");
  }
}
