package dev.speechscale.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.scaling.ScalingDecision.Direction;
import dev.speechscale.scaling.ScalingEngineTest.Fleet;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The fight of issue 35 on a hand-worked timeline: 600 s quiet at 0.5 (below the scale-in threshold
 * 2), then a surge at 6 (above the target 4), one instance at min 1.
 */
class ScaleInAlarmTest {
  static final Duration OUT = Duration.ofSeconds(30);
  static final Duration IN = Duration.ofSeconds(120);

  static ScalingRules rules(ScaleInAlarm alarm) {
    return ScalingRules.planned(4, 2, 1, 5, OUT, IN, alarm);
  }

  static Fleet surgeAfterQuiet(ScaleInAlarm alarm) {
    SecondSamples load = new SecondSamples().set(0, 600, 0.5).set(600, 1200, 6.0);
    Fleet fleet = new Fleet(1, 1);
    return fleet.run(new ScalingEngine(rules(alarm)), load, 0, 700);
  }

  @Test
  void average60s_afterAQuietSpell_undoesTheScaleOutOneSecondLater() {
    Fleet fleet = surgeAfterQuiet(ScaleInAlarm.AVERAGE_60S);

    assertThat(fleet.changes.subList(0, 2))
        .extracting(s -> s.second() + " " + s.decision().direction())
        .containsExactly("630 OUT", "631 IN");
  }

  @Test
  void maximum10s_afterAQuietSpell_keepsTheScaleOut() {
    Fleet fleet = surgeAfterQuiet(ScaleInAlarm.MAXIMUM_10S);

    assertThat(fleet.changes).isNotEmpty();
    assertThat(fleet.changes.getFirst().second()).isEqualTo(630);
    assertThat(fleet.changes).allMatch(s -> s.decision().direction() == Direction.OUT);
  }

  @Test
  void maximum10s_stillScalesInAfterThirtyQuietSeconds() {
    SecondSamples load = new SecondSamples().set(0, 400, 1.0);
    Fleet fleet = new Fleet(3, 3);
    fleet.inServiceFollows = true;

    fleet.run(new ScalingEngine(rules(ScaleInAlarm.MAXIMUM_10S)), load, 0, 400);

    assertThat(fleet.seconds()).as("30 s of data, then every 120 s").containsExactly(30, 150);
    assertThat(fleet.changes.getFirst().decision().cause())
        .isEqualTo("step scale-in: ConcurrentRequestsPerModel Maximum 1.00 <= 2.00 for 3 periods");
  }

  @Test
  void planned_carriesTheAlarmsStatisticAndPeriod() {
    StepScaleIn in = (StepScaleIn) rules(ScaleInAlarm.MAXIMUM_10S).scaleIn();

    assertThat(in.statistic()).isEqualTo(MetricStatistic.MAXIMUM);
    assertThat(in.period()).isEqualTo(Duration.ofSeconds(10));
    assertThat(in.datapoints()).isEqualTo(3);
    StepScaleIn average = (StepScaleIn) rules(ScaleInAlarm.AVERAGE_60S).scaleIn();
    assertThat(average.statistic())
        .as("the pair before issue 35")
        .isEqualTo(MetricStatistic.AVERAGE);
    assertThat(average.period()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void labels_roundTripAndRefuseOthers() {
    for (ScaleInAlarm a : ScaleInAlarm.values()) {
      assertThat(ScaleInAlarm.ofLabel(a.label())).isEqualTo(a);
      assertThat(ScaleInAlarm.of(a.statistic(), a.period())).isEqualTo(a);
    }
    assertThat(ScaleInAlarm.DEFAULT).isEqualTo(ScaleInAlarm.MAXIMUM_10S);
    assertThatThrownBy(() -> ScaleInAlarm.ofLabel("sum_60s"))
        .hasMessageContaining("average_60s, maximum_10s");
    assertThatThrownBy(() -> ScaleInAlarm.of(MetricStatistic.MAXIMUM, Duration.ofSeconds(60)))
        .hasMessageContaining("Maximum over 60 s");
  }
}
