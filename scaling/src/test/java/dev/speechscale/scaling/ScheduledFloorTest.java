package dev.speechscale.scaling;

import static dev.speechscale.scaling.SecondSamples.T0_MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.scaling.ScalingDecision.Direction;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Scheduled minimum-capacity floors: the time-of-day arithmetic and the engine's use of them. */
class ScheduledFloorTest {
  static final ScalingRules BASE =
      ScalingRules.planned(
          4, 2, 1, 6, Duration.ofSeconds(30), Duration.ofSeconds(60), ScaleInAlarm.AVERAGE_60S);

  /** T0 is midnight UTC. */
  static long at(int hour, int minute, int second) {
    return T0_MS + (hour * 3600L + minute * 60L + second) * 1000L;
  }

  @Test
  void cron_isTheDailyAasSchedule() {
    assertThat(ScheduledFloor.at("08:30", 3).cron()).isEqualTo("cron(30 8 * * ? *)");
    assertThat(ScheduledFloor.at("00:00", 3).cron()).isEqualTo("cron(0 0 * * ? *)");
    assertThat(ScheduledFloor.ofCron("cron(5 23 * * ? *)", 2))
        .isEqualTo(new ScheduledFloor(23 * 3600 + 5 * 60, 2));
    assertThat(ScheduledFloor.at("7:05", 1).hhmm()).isEqualTo("07:05");
  }

  @Test
  void validation_namesTheFieldAndTheFix() {
    assertThatThrownBy(() -> new ScheduledFloor(90, 2))
        .hasMessageContaining("multiple of 60")
        .hasMessageContaining("60 s");
    assertThatThrownBy(() -> new ScheduledFloor(86_400, 2)).hasMessageContaining("[0, 86400)");
    assertThatThrownBy(() -> new ScheduledFloor(-60, 2)).hasMessageContaining("[0, 86400)");
    assertThatThrownBy(() -> new ScheduledFloor(60, -1)).hasMessageContaining("at least 0");
    assertThatThrownBy(() -> ScheduledFloor.at("8h30", 1)).hasMessageContaining("HH:MM");
    assertThatThrownBy(() -> ScheduledFloor.at("24:00", 1)).hasMessageContaining("00-23");
    assertThatThrownBy(() -> ScheduledFloor.ofCron("cron(0 8 ? * MON-FRI *)", 1))
        .hasMessageContaining("cron(M H * * ? *)");
    assertThatThrownBy(() ->
            BASE.withFloors(List.of(ScheduledFloor.at("08:00", 2), ScheduledFloor.at("08:00", 3))))
        .hasMessageContaining("two scheduled floors at 08:00");
    assertThatThrownBy(() -> BASE.withFloors(List.of(ScheduledFloor.at("08:00", 7))))
        .hasMessageContaining("above max capacity (6)");
  }

  @Test
  void minCapacityAt_latestFloorAtOrBefore_wrapsToYesterdaysLast_neverBelowMin() {
    ScalingRules r =
        BASE.withFloors(
            List.of(
                ScheduledFloor.at("20:00", 0), // unordered on purpose
                ScheduledFloor.at("08:00", 4),
                ScheduledFloor.at("12:30", 2)));

    assertThat(r.floors())
        .extracting(ScheduledFloor::hhmm)
        .containsExactly("08:00", "12:30", "20:00");
    assertThat(r.minCapacityAt(at(7, 59, 59)))
        .as("yesterday's 20:00 floor 0, raised to min 1")
        .isEqualTo(1);
    assertThat(r.minCapacityAt(at(8, 0, 0))).as("at the floor's second").isEqualTo(4);
    assertThat(r.minCapacityAt(at(12, 29, 59))).isEqualTo(4);
    assertThat(r.minCapacityAt(at(12, 30, 0))).isEqualTo(2);
    assertThat(r.minCapacityAt(at(23, 59, 59))).isEqualTo(1);
    assertThat(r.minCapacityAt(at(8, 0, 0) + 86_400_000L * 3)).as("any day").isEqualTo(4);
    assertThat(r.minCapacityAt(at(8, 0, 0) - 86_400_000L * 365 * 60))
        .as("before the epoch: floorMod, not %")
        .isEqualTo(4);
    assertThat(BASE.minCapacityAt(at(9, 0, 0))).as("no floors: min").isEqualTo(1);

    ScalingRules single = BASE.withFloors(List.of(ScheduledFloor.at("09:00", 3)));
    assertThat(single.minCapacityAt(at(3, 0, 0))).as("one floor holds all day").isEqualTo(3);
  }

  @Test
  void rules_keepFloorsThroughTimeScaling_andFourArgConstructorHasNone() {
    ScalingRules r = BASE.withFloors(List.of(ScheduledFloor.at("08:00", 4)));
    assertThat(r.timeScaled(0.1).floors()).isEqualTo(r.floors());
    assertThat(new ScalingRules(1, 2, BASE.tracking(), BASE.scaleIn()).floors()).isEmpty();
  }

  @Test
  void engine_belowTheFloor_scalesOutToItAtOnce_evenInsideTheScaleOutCooldown() {
    ScalingRules r =
        BASE.withFloors(List.of(ScheduledFloor.at("00:00", 1), ScheduledFloor.at("08:00", 4)));
    ScalingEngine engine = new ScalingEngine(r);
    SecondSamples surge = new SecondSamples(at(7, 59, 0)).set(0, 200, 6.0);
    ScalingDecision out = engine.evaluate(at(7, 59, 50), surge, 1, 1, Suspension.NONE);
    assertThat(out.direction()).as("target tracking: ceil(1 x 6 / 4)").isEqualTo(Direction.OUT);
    assertThat(out.desired()).isEqualTo(2);

    SecondSamples quiet = new SecondSamples(at(7, 59, 0)).set(0, 200, 3.0);
    ScalingDecision before = engine.evaluate(at(7, 59, 59), quiet, 2, 2, Suspension.NONE);
    assertThat(before.changes()).as("the floor is not in force yet").isFalse();

    ScalingDecision floor = engine.evaluate(at(8, 0, 0), quiet, 2, 2, Suspension.NONE);
    assertThat(floor.direction())
        .as("10 s into a 30 s scale-out cooldown, yet the floor acts")
        .isEqualTo(Direction.OUT);
    assertThat(floor.desired()).isEqualTo(4);
    assertThat(floor.cause()).contains("scheduled floor");
  }

  @Test
  void engine_largerTrackingScaleOutBeatsTheFloor() {
    ScalingRules r = BASE.withFloors(List.of(ScheduledFloor.at("00:00", 2)));
    SecondSamples load = new SecondSamples().set(0, 40, 20.0);
    ScalingDecision d = new ScalingEngine(r).evaluate(T0_MS + 30_000, load, 1, 1, Suspension.NONE);
    assertThat(d.desired()).as("ceil(1 x 20 / 4) = 5 > floor 2").isEqualTo(5);
  }

  @Test
  void engine_scaleInStopsAtTheFloor_andNotWhenScheduledScalingIsSuspended() {
    ScalingRules r =
        BASE.withFloors(List.of(ScheduledFloor.at("00:00", 3), ScheduledFloor.at("12:00", 1)));
    SecondSamples idle = new SecondSamples().set(0, 600, 0.0);
    ScalingEngine engine = new ScalingEngine(r);
    int desired = 5;
    for (int s = 0; s < 600; s++) {
      desired =
          engine.evaluate(T0_MS + s * 1000L, idle, desired, desired, Suspension.NONE).desired();
    }
    assertThat(desired).as("step scale-in down to the 00:00 floor of 3, not min 1").isEqualTo(3);

    ScalingDecision suspended =
        new ScalingEngine(r).evaluate(T0_MS + 1000, idle, 1, 1, new Suspension(false, false, true));
    assertThat(suspended.changes()).as("scheduled scaling suspended: no floor").isFalse();
  }

  private static SecondSamples quiet(long startMs) {
    return new SecondSamples(startMs).set(0, 200, 3.0);
  }
}
