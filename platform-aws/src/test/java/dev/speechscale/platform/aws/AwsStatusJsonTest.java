package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.Statistic;
import dev.speechscale.platform.SuspendedState;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code speech-infra status --json --platform aws}: the documented field names and values. */
class AwsStatusJsonTest {
  private static final EndpointDescription ENDPOINT =
      new EndpointDescription(
          "speech-kokoro-82m",
          EndpointStatus.UPDATING,
          2,
          1,
          "ml.g5.xlarge",
          Instant.parse("2026-12-07T00:00:00Z"));

  @Test
  void of_attachedScaling_namesTheTargetPoliciesAndAlarms() {
    ScalingState s =
        new ScalingState(
            Optional.of(
                new ScalingState.ScalableTarget(
                    "endpoint/speech-kokoro-82m/variant/AllTraffic",
                    1,
                    4,
                    new SuspendedState(true, false, false))),
            List.of(
                new ScalingPolicy.TargetTracking(
                    "track",
                    "ConcurrentRequestsPerModel",
                    Statistic.MAXIMUM,
                    10,
                    3.5,
                    60,
                    300,
                    true),
                new ScalingPolicy.StepScaling(
                    "step-in",
                    "ChangeInCapacity",
                    List.of(new ScalingPolicy.Step(null, 0.0, -1)),
                    300,
                    List.of("low"))),
            List.of(
                new Alarm(
                    "low",
                    "ConcurrentRequestsPerModel",
                    Statistic.AVERAGE,
                    60,
                    5,
                    1.25,
                    Alarm.Comparison.values()[0],
                    Alarm.AlarmState.values()[0],
                    List.of("arn:step-in"),
                    null)),
            null);

    JsonNode o = AwsStatusJson.of(ENDPOINT, s);

    assertThat(o.get("platform").asString()).isEqualTo("aws");
    assertThat(o.get("status").asString()).isEqualTo("UPDATING");
    assertThat(o.get("desired_instances").asInt()).isEqualTo(2);
    assertThat(o.get("in_service_instances").asInt()).isEqualTo(1);
    JsonNode sc = o.get("scaling");
    assertThat(sc.get("attached").asBoolean()).isTrue();
    assertThat(sc.get("max_instances").asInt()).isEqualTo(4);
    assertThat(sc.get("suspended").get("dynamic_scaling_in").asBoolean()).isTrue();
    assertThat(sc.get("policies").get(0).get("type").asString()).isEqualTo("TargetTrackingScaling");
    assertThat(sc.get("policies").get(0).get("target_value").asDouble()).isEqualTo(3.5);
    assertThat(sc.get("policies").get(1).get("steps").get(0).get("lower_bound").isNull()).isTrue();
    assertThat(sc.get("policies").get(1).get("steps").get(0).get("adjustment").asInt())
        .isEqualTo(-1);
    assertThat(sc.get("alarms").get(0).get("threshold").asDouble()).isEqualTo(1.25);
    assertThat(sc.get("alarms").get(0).get("period_s").asInt()).isEqualTo(60);
  }

  @Test
  void of_noScaling_writesTheReasonAndNullsNotMissingFields() {
    JsonNode o = AwsStatusJson.of(ENDPOINT, ScalingState.none("no plan beside the config"));

    JsonNode sc = o.get("scaling");
    assertThat(sc.get("attached").asBoolean()).isFalse();
    assertThat(sc.get("reason").asString()).isEqualTo("no plan beside the config");
    assertThat(sc.has("resource_id")).isTrue();
    assertThat(sc.get("resource_id").isNull()).isTrue();
    assertThat(sc.get("suspended").isNull()).isTrue();
    assertThat(sc.get("policies")).isEmpty();
  }
}
