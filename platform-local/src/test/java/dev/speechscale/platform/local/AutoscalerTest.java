package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ScaleInAlarmChoice;
import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.SuspendedState;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AutoscalerTest {
  static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");

  /** A capacity that does what it is told, instantly. */
  static final class FakeCapacity implements Autoscaler.Capacity {
    int desired = 1;
    int inService = 1;

    @Override
    public int desired() {
      return desired;
    }

    @Override
    public int inService() {
      return inService;
    }

    @Override
    public void setDesired(int count, String cause) {
      desired = count;
    }
  }

  private final MetricStore store = new MetricStore();
  private final FakeCapacity capacity = new FakeCapacity();

  /** Target 4, scale-in at 2, 1..3 instances, cooldowns 30 s out and 120 s in, AWS periods. */
  private final Autoscaler scaler =
      new Autoscaler(
          Autoscaler.Policy.of(
              4,
              2,
              1,
              3,
              30,
              120,
              ScaleInAlarmChoice.AVERAGE_60S,
              java.util.List.of(),
              dev.speechscale.artifacts.ScalingMetricChoice.DEFAULT,
              1.0),
          store,
          capacity);

  private void load(int fromSecond, int toSecond, double perInstance) {
    for (int s = fromSecond; s < toSecond; s++) {
      store.record(new MetricStore.Sample(T0.plusSeconds(s), perInstance, 0, 0, 0, new double[0]));
    }
  }

  @Test
  void evaluate_threePeriodsAboveTarget_scalesOutProportionally() {
    load(0, 30, 6.0);

    scaler.evaluate(T0.plusSeconds(30));

    assertThat(scaler.highAlarm()).isEqualTo(Alarm.AlarmState.ALARM);
    assertThat(capacity.desired).isEqualTo(2);
    assertThat(scaler.activities().getFirst().cause()).contains("ceil(1 x 6.00 / 4.00)");
  }

  @Test
  void evaluate_twoPeriodsAbove_doesNothingYet() {
    load(0, 10, 1.0);
    load(10, 30, 6.0);

    scaler.evaluate(T0.plusSeconds(30));

    assertThat(scaler.highAlarm()).isEqualTo(Alarm.AlarmState.OK);
    assertThat(capacity.desired).isEqualTo(1);
  }

  @Test
  void evaluate_atTheTargetExactly_doesNotBreach() {
    load(0, 30, 4.0);

    scaler.evaluate(T0.plusSeconds(30));

    assertThat(scaler.highAlarm()).isEqualTo(Alarm.AlarmState.OK);
  }

  @Test
  void evaluate_notEnoughData_trackingIsInsufficientAndScaleInTreatsItAsNotBreaching() {
    load(0, 15, 6.0);

    scaler.evaluate(T0.plusSeconds(20));

    // two breaching periods of three, the older only 2 periods old: CloudWatch waits
    assertThat(scaler.highAlarm()).isEqualTo(Alarm.AlarmState.INSUFFICIENT_DATA);
    // no complete 60 s period yet: notBreaching fills them as within the threshold
    assertThat(scaler.lowAlarm()).isEqualTo(Alarm.AlarmState.OK);
    assertThat(capacity.desired).isEqualTo(1);
  }

  @Test
  void evaluate_scaleOutIsCappedAtMaxAndHeldByItsCooldown() {
    load(0, 60, 40.0);
    scaler.evaluate(T0.plusSeconds(30));
    assertThat(capacity.desired).isEqualTo(3);

    capacity.desired = 1;
    scaler.evaluate(T0.plusSeconds(50));
    assertThat(capacity.desired).isEqualTo(1);
    scaler.evaluate(T0.plusSeconds(60));
    assertThat(capacity.desired).isEqualTo(3);
  }

  @Test
  void evaluate_sustainedLowAverage_removesOneInstanceAtATime() {
    capacity.desired = 3;
    capacity.inService = 3;
    load(0, 400, 1.0);

    scaler.evaluate(T0.plusSeconds(180));
    assertThat(scaler.lowAlarm()).isEqualTo(Alarm.AlarmState.ALARM);
    assertThat(capacity.desired).isEqualTo(2);
    scaler.evaluate(T0.plusSeconds(240));
    assertThat(capacity.desired).as("inside the 120 s scale-in cooldown").isEqualTo(2);
    scaler.evaluate(T0.plusSeconds(300));
    assertThat(capacity.desired).isEqualTo(1);
    scaler.evaluate(T0.plusSeconds(420));
    assertThat(capacity.desired).as("never below min").isEqualTo(1);
  }

  @Test
  void evaluate_averageJustAboveTheScaleInThreshold_keepsCapacity() {
    capacity.desired = 2;
    load(0, 180, 2.01);

    scaler.evaluate(T0.plusSeconds(180));

    assertThat(scaler.lowAlarm()).isEqualTo(Alarm.AlarmState.OK);
    assertThat(capacity.desired).isEqualTo(2);
  }

  @Test
  void evaluate_suspendedDirections_areNotActedOn() {
    load(0, 30, 6.0);
    scaler.setSuspended(new SuspendedState(false, true, false));

    scaler.evaluate(T0.plusSeconds(30));

    assertThat(scaler.highAlarm()).isEqualTo(Alarm.AlarmState.ALARM);
    assertThat(capacity.desired).isEqualTo(1);
  }

  @Test
  void policy_timeScale_compressesThePeriodsButNotBelowOneSecond() {
    Autoscaler.Policy p =
        Autoscaler.Policy.of(
            4,
            2,
            1,
            3,
            30,
            120,
            ScaleInAlarmChoice.AVERAGE_60S,
            java.util.List.of(),
            dev.speechscale.artifacts.ScalingMetricChoice.DEFAULT,
            0.1);

    assertThat(p.trackingPeriod().toMillis()).isEqualTo(1000);
    assertThat(p.scaleInPeriod().toMillis()).isEqualTo(6000);
    assertThat(p.scaleOutCooldown().toSeconds()).isEqualTo(30);
  }

  @Test
  void floors_runOnTheDayCompressedByTheTimeScale_andCanBePutAndDeleted() {
    // Time scale 0.01: a day of floors passes in 864 s; 08:00 is 288 s into each such day.
    FakeCapacity c = new FakeCapacity();
    Autoscaler a =
        new Autoscaler(
            Autoscaler.Policy.of(
                4,
                2,
                1,
                3,
                30,
                120,
                ScaleInAlarmChoice.MAXIMUM_10S,
                java.util.List.of(
                    new dev.speechscale.artifacts.ScheduledFloorEntry("00:00", 1),
                    new dev.speechscale.artifacts.ScheduledFloorEntry("08:00", 3)),
                dev.speechscale.artifacts.ScalingMetricChoice.DEFAULT,
                0.01),
            store,
            c);
    // T0 is a multiple of 864 s (2026-11-30T00:00Z = 20,422 days), so the compressed day starts
    // there.
    a.evaluate(T0.plusSeconds(287));
    assertThat(c.desired).as("before 08:00 of the compressed day").isEqualTo(1);

    a.evaluate(T0.plusSeconds(288));
    assertThat(c.desired).as("08:00: floor 3 at once").isEqualTo(3);
    assertThat(a.activities().getLast().cause()).contains("scheduled floor");
    assertThat(a.floors())
        .extracting(Views.Floor::name)
        .containsExactly("floor-0000", "floor-0800");

    a.putFloor(new Views.Floor("late", "12:00", 2));
    assertThat(a.floors()).hasSize(3);
    a.deleteFloor("floor-0800");
    assertThat(a.floors()).extracting(Views.Floor::name).containsExactly("floor-0000", "late");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> a.deleteFloor("nope"))
        .hasMessageContaining("no scheduled action nope");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> a.putFloor(new Views.Floor("big", "13:00", 9)))
        .hasMessageContaining("above max capacity (3)");
  }
}
