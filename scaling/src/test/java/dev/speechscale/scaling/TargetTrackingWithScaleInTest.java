package dev.speechscale.scaling;

import static dev.speechscale.scaling.SecondSamples.T0_MS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.MetricQuery.Metric;
import dev.speechscale.scaling.ScalingDecision.Direction;
import dev.speechscale.scaling.ScalingEngineTest.Fleet;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The rival a user copies: SageMaker's predefined InvocationsPerInstance target tracking, scale-in
 * enabled, Sum over 60 s periods, target 70, SageMaker's default 300 s cooldowns. High alarm: 3
 * periods above 70; low alarm: 15 periods below 0.9 × 70 = 63.
 */
class TargetTrackingWithScaleInTest {
  static final ScalingRules INVOCATIONS =
      ScalingRules.targetTracking(
          Metric.INVOCATIONS_PER_INSTANCE,
          MetricStatistic.SUM,
          Duration.ofSeconds(60),
          70,
          1,
          10,
          ScalingRules.SAGEMAKER_DEFAULT_COOLDOWN,
          ScalingRules.SAGEMAKER_DEFAULT_COOLDOWN);

  /** Per-second invocations per instance whose 60 s Sum is {@code perMinute}. */
  private static SecondSamples perMinute(double perMinute, int seconds) {
    return new SecondSamples().set(0, seconds, perMinute / 60);
  }

  @Test
  void targetTracking_hasAwsAlarmShape() {
    assertThat(INVOCATIONS.disableScaleIn()).isFalse();
    assertThat(INVOCATIONS.tracking().datapoints()).isEqualTo(3);
    assertThat(INVOCATIONS.scaleIn())
        .isEqualTo(new ScaleIn.Tracking(15, 0.9, Duration.ofSeconds(300)));
  }

  @Test
  void evaluate_fifteenPeriodsBelowNinetyPercent_scalesInProportionallyAtExactlyFifteenMinutes() {
    SecondSamples load = perMinute(30, 3600);
    Fleet fleet = new Fleet(4, 4);
    ScalingEngine engine = new ScalingEngine(INVOCATIONS);

    fleet.run(engine, load, 0, 899);
    assertThat(fleet.changes).isEmpty();
    ScalingDecision d = fleet.step(engine, load, 900);

    assertThat(engine.lowAlarm()).isEqualTo(AlarmState.ALARM);
    assertThat(d.direction()).isEqualTo(Direction.IN);
    assertThat(d.desired()).as("max(1, ceil(4 x 30 / 70))").isEqualTo(2);
    assertThat(d.cause())
        .startsWith(
            "target tracking scale-in: InvocationsPerInstance Sum 30.00 < 63.00 (0.90 x target"
                + " 70.00) for 15 periods");
  }

  @Test
  void evaluate_scaleIn_isHeldByItsCooldownAndStopsAtMin() {
    SecondSamples load = perMinute(6, 7200);
    Fleet fleet = new Fleet(10, 10);

    fleet.run(new ScalingEngine(INVOCATIONS), load, 0, 7200);

    assertThat(fleet.seconds())
        .as("15 min of data, then nothing: already at min")
        .containsExactly(900);
    assertThat(fleet.desired).as("max(1, ceil(10 x 6 / 70))").isEqualTo(1);
  }

  @Test
  void evaluate_secondScaleIn_waitsExactlyTheScaleInCooldown() {
    SecondSamples load = perMinute(50, 7200);
    Fleet fleet = new Fleet(8, 8);
    fleet.inServiceFollows = true;
    ScalingEngine engine = new ScalingEngine(INVOCATIONS);

    fleet.run(engine, load, 0, 1499);

    assertThat(fleet.seconds())
        .as("ceil(8 x 50 / 70) = 6 at 900 s, ceil(6 x 50 / 70) = 5 at 900 + 300 s")
        .containsExactly(900, 1200);
    assertThat(fleet.desired).isEqualTo(5);
  }

  @Test
  void evaluate_exactlyNinetyPercent_doesNotBreachTheLowAlarm() {
    SecondSamples load = perMinute(63, 1000);
    ScalingEngine engine = new ScalingEngine(INVOCATIONS);

    ScalingDecision d = engine.evaluate(T0_MS + 900_000, load, 4, 4, Suspension.NONE);

    assertThat(engine.lowAlarm()).isEqualTo(AlarmState.OK);
    assertThat(d.direction()).isEqualTo(Direction.NONE);
  }

  @Test
  void evaluate_threePeriodsAboveTarget_scalesOutAtThreeMinutes() {
    SecondSamples load = perMinute(140, 600);
    Fleet fleet = new Fleet(2, 2);

    fleet.run(new ScalingEngine(INVOCATIONS), load, 0, 240);

    assertThat(fleet.seconds()).containsExactly(180);
    assertThat(fleet.desired).as("ceil(2 x 140 / 70)").isEqualTo(4);
  }

  @Test
  void evaluate_cpuStyleUtilisation_tracksAverageBusyPercent() {
    ScalingRules cpu =
        ScalingRules.targetTracking(
            Metric.CPU_UTILIZATION,
            MetricStatistic.AVERAGE,
            Duration.ofSeconds(60),
            70,
            1,
            20,
            Duration.ofSeconds(300),
            Duration.ofSeconds(300));
    SecondSamples load = new SecondSamples().set(0, 600, 95.0);

    ScalingDecision d =
        new ScalingEngine(cpu).evaluate(T0_MS + 180_000, load, 5, 5, Suspension.NONE);

    assertThat(d.desired()).as("ceil(5 x 95 / 70)").isEqualTo(7);
    assertThat(d.cause())
        .startsWith("target tracking: CPUUtilization Average 95.00 > target 70.00");
  }
}
