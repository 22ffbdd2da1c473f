package dev.speechscale.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.MetricQuery.Metric;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScalingRulesTest {
  private static final Duration OUT = Duration.ofSeconds(30);
  private static final Duration IN = Duration.ofSeconds(300);

  @Test
  void planned_isTheShapeAPlanDeploys() {
    ScalingRules r = ScalingRules.planned(4, 2, 1, 3, OUT, IN, ScaleInAlarm.AVERAGE_60S);

    assertThat(r.tracking())
        .isEqualTo(
            new TargetTracking(
                Metric.CONCURRENT_REQUESTS_PER_MODEL,
                MetricStatistic.MAXIMUM,
                Duration.ofSeconds(10),
                3,
                4,
                OUT));
    assertThat(r.scaleIn())
        .isEqualTo(
            new StepScaleIn(
                Metric.CONCURRENT_REQUESTS_PER_MODEL,
                MetricStatistic.AVERAGE,
                Duration.ofSeconds(60),
                3,
                2,
                IN));
    assertThat(r.disableScaleIn()).isTrue();
  }

  @Test
  void timeScaled_compressesPeriodsButNotBelowOneSecondAndKeepsCooldowns() {
    ScalingRules r =
        ScalingRules.planned(4, 2, 1, 3, OUT, IN, ScaleInAlarm.AVERAGE_60S).timeScaled(0.1);

    assertThat(r.tracking().period()).isEqualTo(Duration.ofSeconds(1));
    assertThat(((StepScaleIn) r.scaleIn()).period()).isEqualTo(Duration.ofSeconds(6));
    assertThat(r.tracking().scaleOutCooldown()).isEqualTo(OUT);
    assertThat(((StepScaleIn) r.scaleIn()).cooldown()).isEqualTo(IN);
    assertThat(
            ScalingRules.planned(4, 2, 1, 3, OUT, IN, ScaleInAlarm.AVERAGE_60S)
                .timeScaled(0.01)
                .tracking()
                .period())
        .isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void timeScaled_realTime_isUnchanged() {
    ScalingRules r = ScalingRules.planned(4, 2, 1, 3, OUT, IN, ScaleInAlarm.AVERAGE_60S);

    assertThat(r.timeScaled(1.0)).isEqualTo(r);
  }

  @Test
  void constructor_maxBelowMin_isRefusedWithBothValues() {
    assertThatThrownBy(() -> ScalingRules.planned(4, 2, 3, 2, OUT, IN, ScaleInAlarm.AVERAGE_60S))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max capacity (2)")
        .hasMessageContaining("min capacity (3)");
  }

  @Test
  void constructor_zeroTarget_isRefused() {
    assertThatThrownBy(() -> ScalingRules.planned(0, 0, 1, 2, OUT, IN, ScaleInAlarm.AVERAGE_60S))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("target value (0.0)");
  }

  @Test
  void constructor_subSecondPeriod_isRefused() {
    assertThatThrownBy(() ->
            ScalingRules.targetTracking(
                Metric.CPU_UTILIZATION,
                MetricStatistic.AVERAGE,
                Duration.ofMillis(500),
                70,
                1,
                2,
                OUT,
                IN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("target tracking period (PT0.5S) must be at least 1 s");
  }

  @Test
  void constructor_negativeCooldown_isRefused() {
    assertThatThrownBy(() ->
            ScalingRules.planned(4, 2, 1, 2, Duration.ofSeconds(-1), IN, ScaleInAlarm.AVERAGE_60S))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("scale-out cooldown (PT-1S) must not be negative");
  }

  @Test
  void metric_awsNames_areCloudWatchSpellings() {
    assertThat(Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName())
        .isEqualTo("ConcurrentRequestsPerModel");
    assertThat(Metric.INVOCATIONS_PER_INSTANCE.cloudWatchName())
        .isEqualTo("InvocationsPerInstance");
    assertThat(Metric.CPU_UTILIZATION.cloudWatchName()).isEqualTo("CPUUtilization");
  }
}
