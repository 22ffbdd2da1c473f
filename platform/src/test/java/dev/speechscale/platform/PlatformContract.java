package dev.speechscale.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link Platform} passes, run by the local platform against real processes and
 * by the AWS provider against fakes of its own narrow client interfaces. A subclass supplies a
 * {@link Fixture}: an endpoint deployed with scaling attached behind a matching plan, {@code
 * min_instances} 1 and {@code max_instances} at least 2.
 *
 * <p>The suite mutates the endpoint (suspend, desired count) and puts it back.
 */
public abstract class PlatformContract {

  /** What the suite needs from an implementation's test. */
  public interface Fixture {
    Platform platform();

    /** The deployed endpoint's name. */
    String endpoint();

    /** The scaling target value the plan deployed. */
    double scalingTargetValue();

    /** The scale-in threshold the plan deployed. */
    double scaleInThreshold();

    /**
     * Waits (really, or by advancing fakes) until the endpoint reports {@code count} in-service
     * instances.
     */
    void awaitInServiceInstances(int count, Duration timeout);

    /** A transport this fixture can invoke end to end. */
    Transport invokableTransport();
  }

  /** The fixture, set up once for the class by the subclass. */
  protected abstract Fixture fixture();

  private Platform platform() {
    return fixture().platform();
  }

  private String endpoint() {
    return fixture().endpoint();
  }

  @Test
  void describe_deployedEndpoint_isInServiceAtItsMinimum() {
    EndpointDescription d = platform().describe(endpoint());

    assertThat(d.name()).isEqualTo(endpoint());
    assertThat(d.status()).isEqualTo(EndpointStatus.IN_SERVICE);
    assertThat(d.currentInstances()).isGreaterThanOrEqualTo(1);
    assertThat(d.desiredInstances()).isEqualTo(d.currentInstances());
    assertThat(d.instanceType()).isNotBlank();
  }

  @Test
  void describe_unknownEndpoint_isNotFound() {
    assertThatThrownBy(() -> platform().describe("speech-no-such-model"))
        .isInstanceOf(PlatformException.class)
        .satisfies(e ->
            assertThat(((PlatformException) e).reason())
                .isInstanceOf(PlatformException.Reason.NotFound.class));
  }

  @Test
  void fingerprint_isStableAndNamesTheInstanceType() {
    Fingerprint a = platform().fingerprint(endpoint());
    Fingerprint b = platform().fingerprint(endpoint());

    assertThat(a).isEqualTo(b);
    assertThat(a.instanceType()).isEqualTo(platform().describe(endpoint()).instanceType());
    assertThat(a.imageDigest()).isNotBlank();
  }

  @Test
  void scalingState_behindAPlan_hasTrackingWithScaleInDisabledAndAStepScaleIn() {
    ScalingState s = platform().scalingState(endpoint());

    assertThat(s.target()).isPresent();
    assertThat(s.target().get().minCapacity()).isEqualTo(1);
    assertThat(s.target().get().maxCapacity()).isGreaterThanOrEqualTo(2);
    ScalingPolicy.TargetTracking tracking =
        s.policies().stream()
            .filter(ScalingPolicy.TargetTracking.class::isInstance)
            .map(ScalingPolicy.TargetTracking.class::cast)
            .findFirst()
            .orElseThrow();
    assertThat(tracking.metricName()).isEqualTo("ConcurrentRequestsPerModel");
    assertThat(tracking.statistic()).isEqualTo(Statistic.MAXIMUM);
    assertThat(tracking.periodSeconds()).isEqualTo(10);
    assertThat(tracking.disableScaleIn()).isTrue();
    assertThat(tracking.targetValue()).isEqualTo(fixture().scalingTargetValue());
    ScalingPolicy.StepScaling step =
        s.policies().stream()
            .filter(ScalingPolicy.StepScaling.class::isInstance)
            .map(ScalingPolicy.StepScaling.class::cast)
            .findFirst()
            .orElseThrow();
    assertThat(step.steps()).extracting(ScalingPolicy.Step::adjustment).containsExactly(-1);
    Alarm scaleIn =
        s.alarms().stream()
            .filter(a -> step.alarmNames().contains(a.name()))
            .findFirst()
            .orElseThrow();
    assertThat(scaleIn.metricName()).isEqualTo("ConcurrentRequestsPerModel");
    assertThat(scaleIn.statistic()).isEqualTo(Statistic.AVERAGE);
    assertThat(scaleIn.periodSeconds()).isEqualTo(60);
    assertThat(scaleIn.evaluationPeriods()).isEqualTo(3);
    assertThat(scaleIn.threshold()).isEqualTo(fixture().scaleInThreshold());
    assertThat(scaleIn.comparison()).isEqualTo(Alarm.Comparison.LESS_THAN_OR_EQUAL_TO_THRESHOLD);
  }

  @Test
  void setSuspended_roundTrip_isReflectedInTheScalingState() {
    try {
      platform().setSuspended(endpoint(), SuspendedState.ALL);
      assertThat(platform().scalingState(endpoint()).target().orElseThrow().suspended())
          .isEqualTo(SuspendedState.ALL);

      platform().setSuspended(endpoint(), new SuspendedState(true, false, false));
      assertThat(platform().scalingState(endpoint()).target().orElseThrow().suspended())
          .isEqualTo(new SuspendedState(true, false, false));
    } finally {
      platform().setSuspended(endpoint(), SuspendedState.NONE);
    }
    assertThat(platform().scalingState(endpoint()).target().orElseThrow().suspended())
        .isEqualTo(SuspendedState.NONE);
  }

  @Test
  void setDesiredInstances_scaleOut_newInstanceLogCarriesTheStageMarkersInOrder() {
    int before = platform().describe(endpoint()).currentInstances();
    Instant since = Instant.now().minusSeconds(1);
    platform().setSuspended(endpoint(), SuspendedState.ALL);
    try {
      platform().setDesiredInstances(endpoint(), before + 1);
      assertThat(platform().describe(endpoint()).desiredInstances()).isEqualTo(before + 1);
      fixture().awaitInServiceInstances(before + 1, Duration.ofSeconds(90));

      List<InstanceLog> logs = platform().instanceLogs(endpoint(), since);
      assertThat(logs).isNotEmpty();
      InstanceLog newest = logs.getLast();
      assertThat(newest.firstEventAt()).isAfterOrEqualTo(since);
      List<StageMarker> markers = StageMarker.in(newest);
      assertThat(markers).extracting(StageMarker::stage).containsSubsequence(StageMarker.STAGES);
      for (int i = 1; i < markers.size(); i++) {
        assertThat(markers.get(i).at()).isAfterOrEqualTo(markers.get(i - 1).at());
      }
    } finally {
      platform().setDesiredInstances(endpoint(), before);
      fixture().awaitInServiceInstances(before, Duration.ofSeconds(90));
      platform().setSuspended(endpoint(), SuspendedState.NONE);
    }
  }

  @Test
  void metric_concurrentRequests_answersAtTenAndSixtySeconds() {
    Instant end = Instant.now().plusSeconds(1);
    Instant start = end.minus(Duration.ofMinutes(5));
    for (Duration period : List.of(Duration.ofSeconds(10), Duration.ofSeconds(60))) {
      MetricSeries s =
          platform()
              .metric(
                  endpoint(),
                  new MetricQuery(
                      MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL,
                      Statistic.MAXIMUM,
                      period,
                      start,
                      end));
      assertThat(s.datapoints()).allSatisfy(dp -> assertThat(dp.value()).isGreaterThanOrEqualTo(0));
      for (int i = 1; i < s.datapoints().size(); i++) {
        assertThat(Duration.between(s.datapoints().get(i - 1).at(), s.datapoints().get(i).at()))
            .isGreaterThanOrEqualTo(period);
      }
    }
  }

  @Test
  void invoker_streamsAudio() {
    try (Invoker invoker = platform().invoker(endpoint(), fixture().invokableTransport());
        Invoker.Connection c = invoker.connect()) {
      Invocation i = c.invoke(SynthesisRequest.streaming("Hello from the contract suite."));

      assertThat(i.outcome()).as(i.error()).isEqualTo(Invocation.Outcome.OK);
      assertThat(i.audioBytes()).isPositive();
      assertThat(i.firstAudioNanos()).isBetween(i.sentNanos(), i.completedNanos());
    }
  }
}
