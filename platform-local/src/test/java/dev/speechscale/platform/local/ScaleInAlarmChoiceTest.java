package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ScaleInAlarmChoice;
import dev.speechscale.scaling.MetricStatistic;
import dev.speechscale.scaling.ScaleInAlarm;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The scale-in alarm's two spellings agree: the wire side in artifacts ({@link ScaleInAlarmChoice},
 * configs and plans) and the engine's in scaling ({@link ScaleInAlarm}); platform-local sees both.
 * And the local autoscaler deploys what the config names.
 */
class ScaleInAlarmChoiceTest {
  @Test
  void everyChoice_isTheScalingAlarmOfTheSameLabelStatisticAndPeriod() {
    assertThat(Arrays.stream(ScaleInAlarmChoice.values()).map(ScaleInAlarmChoice::label))
        .containsExactlyElementsOf(
            Arrays.stream(ScaleInAlarm.values()).map(ScaleInAlarm::label).toList());
    for (ScaleInAlarmChoice c : ScaleInAlarmChoice.values()) {
      ScaleInAlarm a = ScaleInAlarm.ofLabel(c.label());
      assertThat(a.statistic().awsName()).isEqualTo(c.statistic());
      assertThat(a.period()).isEqualTo(Duration.ofSeconds(c.periodS()));
    }
    assertThat(ScaleInAlarmChoice.DEFAULT.label()).isEqualTo(ScaleInAlarm.DEFAULT.label());
  }

  @Test
  void policy_maximum10s_deploysTheMaximumOverTenSecondsTimeScaled() {
    Autoscaler.Policy p =
        Autoscaler.Policy.of(
            4,
            2,
            1,
            3,
            30,
            120,
            ScaleInAlarmChoice.MAXIMUM_10S,
            java.util.List.of(),
            dev.speechscale.artifacts.ScalingMetricChoice.DEFAULT,
            0.5);

    assertThat(p.scaleInStatistic()).isEqualTo(MetricStatistic.MAXIMUM);
    assertThat(p.scaleInPeriod()).isEqualTo(Duration.ofSeconds(5));
    assertThat(p.scaleInEvaluationPeriods()).isEqualTo(3);
  }
}
