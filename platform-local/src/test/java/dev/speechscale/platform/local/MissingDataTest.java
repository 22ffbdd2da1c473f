package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.Statistic;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Missing data on the local platform: with {@code local.aws_physics.concurrency_when_idle: missing}
 * an idle endpoint publishes no ConcurrentRequestsPerModel, the target tracking alarm goes to
 * INSUFFICIENT_DATA (CloudWatch's {@code missing}) and the scale-in alarm, deployed {@code
 * notBreaching}, stays OK: the idle endpoint keeps the capacity it was given. With the default
 * ({@code zero}) the same idle seconds sample 0 and the scale-in alarm removes the instance. Time
 * is compressed (time_scale 0.1: 1 s tracking periods).
 */
class MissingDataTest {
  @TempDir Path dir;

  private static String yaml(String whenIdle) {
    return """
    models:
      idle:
        engine: flite
        instance_type: local.1cpu
        min_instances: 1
        max_instances: 2
        scaling_target_value: 2.0
        scale_in_threshold: 1.0
        scale_out_cooldown_s: 5
        scale_in_cooldown_s: 5
        ttfab_slo_ms: 2000
        queue_max_depth: 0
        local: {time_scale: 0.1, aws_physics: {concurrency_when_idle: %s}}
    """
        .formatted(whenIdle);
  }

  @Test
  void idleWithoutDatapoints_theScaleInAlarmStaysOk_andTheCapacityStays() throws Exception {
    try (LocalEndpoint e = LocalEndpoint.deploy(dir, "idle", yaml("missing"), true)) {
      assertThat(e.deployed.scalingAttached()).as(e.deployed.scalingReason()).isTrue();
      e.platform.setDesiredInstances(e.endpoint(), 2);
      AtomicReference<Views.Status> seen = new AtomicReference<>();
      // a status in which the tracking alarm has read a whole evaluation range without data
      LocalEndpoint.await(
          "the tracking alarm in INSUFFICIENT_DATA with two instances in service",
          Duration.ofSeconds(90),
          () -> {
            Views.Status s =
                new ControlClient(e.root).get(e.endpoint(), "/status", Views.Status.class);
            seen.set(s);
            return s.describe().current() == 2
                && "INSUFFICIENT_DATA".equals(s.scaling().highAlarmState());
          });

      Views.Status s = seen.get();
      assertThat(s.scaling().lowAlarmState())
          .as("notBreaching: a period without data is not a quiet one")
          .isEqualTo("OK");
      assertThat(s.describe().desired()).isEqualTo(2);
      assertThat(s.scaling().scaleInTreatMissingData()).isEqualTo("notBreaching");
      Alarm scaleIn =
          e.platform.scalingState(e.endpoint()).alarms().stream()
              .filter(a -> a.name().endsWith("-scale-in"))
              .findFirst()
              .orElseThrow();
      assertThat(scaleIn.treatMissingData()).isEqualTo("notBreaching");
      Instant now = Instant.now();
      MetricSeries idle =
          e.platform.metric(
              e.endpoint(),
              new MetricQuery(
                  MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL,
                  Statistic.MAXIMUM,
                  Duration.ofSeconds(1),
                  now.minusSeconds(5),
                  now));
      assertThat(idle.datapoints()).as("no traffic, no datapoint").isEmpty();
    }
  }

  @Test
  void idleSamplingZero_theScaleInAlarmRemovesTheInstance() throws Exception {
    try (LocalEndpoint e = LocalEndpoint.deploy(dir, "idle", yaml("zero"), true)) {
      e.platform.setDesiredInstances(e.endpoint(), 2);
      LocalEndpoint.await(
          "the step scale-in back to one",
          Duration.ofSeconds(90),
          () ->
              new ControlClient(e.root)
                  .get(e.endpoint(), "/status", Views.Status.class).scaling().activities().stream()
                      .anyMatch(a -> a.cause().startsWith("step scale-in") && a.to() == 1));
    }
  }
}
