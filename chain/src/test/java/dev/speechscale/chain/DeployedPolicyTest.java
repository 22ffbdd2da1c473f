package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.Statistic;
import dev.speechscale.platform.SuspendedState;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Reading the plan's two policies back from a platform's scaling state. */
class DeployedPolicyTest {
  private static final String ENDPOINT = "speech-m";

  @Test
  void read_localPlatformAtATenthOfAwsTime_scalesTimeByTheTrackingPeriod() {
    // tracking reads 1 s periods: a tenth of AWS's 10 s; scale-in must then read 6 s periods
    DeployedPolicy d = DeployedPolicy.read(state(1, 6, Statistic.AVERAGE), ENDPOINT, "plan.json");
    assertThat(d.timeScale()).isEqualTo(0.1);
    assertThat(d.target().maxCapacity()).isEqualTo(4);
    assertThat(d.high().name()).isEqualTo("high");
    assertThat(d.low().threshold()).isEqualTo(2.5);
  }

  @Test
  void read_scaleInAlarmNotSixTrackingPeriods_namesTheAlarmAndThePlansShape() {
    assertThatThrownBy(
            () -> DeployedPolicy.read(state(10, 30, Statistic.AVERAGE), ENDPOINT, "plan.json"))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("alarm low reads the AVERAGE over 3 periods of 30 s")
        .hasMessageContaining("over 3 periods of 60 s");
  }

  @Test
  void read_scaleInAlarmOnTheMaximumOverSixtySeconds_isRefused() {
    assertThatThrownBy(
            () -> DeployedPolicy.read(state(10, 60, Statistic.MAXIMUM), ENDPOINT, "plan.json"))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("but a plan deploys the MAXIMUM over 3 periods of 10 s");
  }

  @Test
  void read_scaleInAlarmOnTheMaximumOverTenSeconds_isTheNewPair() {
    DeployedPolicy p = DeployedPolicy.read(state(10, 10, Statistic.MAXIMUM), ENDPOINT, "plan.json");

    assertThat(p.scaleInAlarm()).isEqualTo(dev.speechscale.scaling.ScaleInAlarm.MAXIMUM_10S);
    assertThat(p.rules().scaleIn())
        .extracting("period")
        .isEqualTo(java.time.Duration.ofSeconds(10));
  }

  @Test
  void read_noScalingAttached_namesThePlanToDeployBehind() {
    assertThatThrownBy(
            () -> DeployedPolicy.read(ScalingState.none("not found"), ENDPOINT, "plan.json"))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("speech-m has no scaling attached (not found)")
        .hasMessageContaining("--plan plan.json");
  }

  private static ScalingState state(int trackingPeriodS, int scaleInPeriodS, Statistic scaleIn) {
    String metric = "ConcurrentRequestsPerModel";
    return new ScalingState(
        Optional.of(new ScalingState.ScalableTarget("r", 1, 4, SuspendedState.NONE)),
        List.of(
            new ScalingPolicy.TargetTracking(
                "track", metric, Statistic.MAXIMUM, trackingPeriodS, 5.0, 60, 0, true),
            new ScalingPolicy.StepScaling(
                "step",
                "ChangeInCapacity",
                List.of(new ScalingPolicy.Step(null, 0.0, -1)),
                300,
                List.of("low"))),
        List.of(
            new Alarm(
                "high",
                metric,
                Statistic.MAXIMUM,
                trackingPeriodS,
                3,
                5.0,
                Alarm.Comparison.GREATER_THAN_THRESHOLD,
                Alarm.AlarmState.OK,
                List.of("track"),
                null),
            new Alarm(
                "low",
                metric,
                scaleIn,
                scaleInPeriodS,
                3,
                2.5,
                Alarm.Comparison.LESS_THAN_OR_EQUAL_TO_THRESHOLD,
                Alarm.AlarmState.OK,
                List.of("step"),
                null)),
        null);
  }
}
