package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ScaleInAlarmChoice;
import dev.speechscale.artifacts.ScalingMetricChoice;
import dev.speechscale.platform.Alarm;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The local autoscaler with {@code scaling_metric: invocations_per_instance}. */
class AutoscalerInvocationsTest {
  static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");

  private final MetricStore store = new MetricStore();
  private final AutoscalerTest.FakeCapacity capacity = new AutoscalerTest.FakeCapacity();

  /** 600 requests per instance per minute, 1..4 instances, cooldowns 60 s out / 120 s in. */
  private final Autoscaler scaler =
      new Autoscaler(
          Autoscaler.Policy.of(
              600,
              2,
              1,
              4,
              60,
              120,
              ScaleInAlarmChoice.MAXIMUM_10S,
              List.of(),
              ScalingMetricChoice.INVOCATIONS_PER_INSTANCE,
              1.0),
          store,
          capacity);

  /** {@code perSecond} requests routed each second over {@code inService} instances. */
  private void load(int fromSecond, int toSecond, long perSecond, int inService) {
    for (int s = fromSecond; s < toSecond; s++) {
      store.record(
          new MetricStore.Sample(
              T0.plusSeconds(s), 1.0, perSecond, 0, 0, new double[0], inService));
    }
  }

  @Test
  void threeMinutesAboveTheTarget_scaleOutOnInvocationsPerInstance() {
    // 20 req/s on one instance: 1,200 per instance per minute, twice the target
    load(0, 180, 20, 1);

    scaler.evaluate(T0.plusSeconds(180));

    assertThat(scaler.highAlarm()).isEqualTo(Alarm.AlarmState.ALARM);
    assertThat(capacity.desired).isEqualTo(2);
    assertThat(scaler.policy().tracksScaleIn()).isTrue();
  }

  @Test
  void fifteenMinutesBelowNinetyPercent_targetTrackingScalesInItself() {
    capacity.desired = 4;
    capacity.inService = 4;
    // 4 req/s over 4 instances: 60 per instance per minute, far below 0.9 x 600
    load(0, 900, 4, 4);

    scaler.evaluate(T0.plusSeconds(900));

    assertThat(scaler.lowAlarm()).isEqualTo(Alarm.AlarmState.ALARM);
    assertThat(capacity.desired).isLessThan(4);
    assertThat(scaler.policy().scaleInCooldown().toSeconds()).isEqualTo(120);
  }

  @Test
  void describingTheScaleInAlarm_givesTargetTrackingsTreatmentOfMissingData() {
    // the supervisor's status (speech-infra status, DescribeAlarms, every deploy's wait for in
    // service) reads it; it cast the scale-in to a step policy and the supervisor died with a
    // ClassCastException on the quickstart's InvocationsPerInstance policy
    assertThat(scaler.policy().scaleInTreatMissingData())
        .isEqualTo(dev.speechscale.scaling.TreatMissingData.TARGET_TRACKING);
  }

  @Test
  void theStoreAnswersInvocationsPerInstanceAsRequestsPerInstancePerPeriod() {
    load(0, 60, 20, 2);
    var series =
        store.query(
            new dev.speechscale.platform.MetricQuery(
                dev.speechscale.platform.MetricQuery.Metric.INVOCATIONS_PER_INSTANCE,
                dev.speechscale.platform.Statistic.SUM,
                java.time.Duration.ofSeconds(60),
                T0,
                T0.plusSeconds(60)));
    assertThat(series.datapoints()).hasSize(1);
    assertThat(series.datapoints().getFirst().value()).isEqualTo(600.0);
  }
}
