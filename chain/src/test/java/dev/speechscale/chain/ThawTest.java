package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.Backoff;
import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.FakeClock;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.InstanceLog;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.Physics;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.SuspendedState;
import dev.speechscale.platform.Transport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code thaw --desired} after a kill that landed during a scale-out: the endpoint is still {@code
 * Updating} (the new instance provisioning) and refuses a capacity change as SageMaker does, so
 * thaw waits for InService and sends it again instead of failing (on fake time: the pause moves the
 * clock).
 */
class ThawTest {
  static final String ENDPOINT = "speech-thaw";
  static final Physics PHYSICS =
      new Physics(Duration.ofSeconds(1), Duration.ZERO, Duration.ofMinutes(2));

  /** A killed ttotal's endpoint: desired 2, the second instance in service at {@code ready}. */
  static final class UpdatingPlatform implements Platform {
    final FakeClock clock;
    final Instant ready;
    int desired = 2;
    final List<String> calls = new ArrayList<>();

    UpdatingPlatform(FakeClock clock, Instant ready) {
      this.clock = clock;
      this.ready = ready;
    }

    private boolean updating() {
      return clock.instant().isBefore(ready);
    }

    @Override
    public String name() {
      return "updating";
    }

    @Override
    public EndpointDescription describe(String endpoint) {
      return new EndpointDescription(
          endpoint,
          updating() ? EndpointStatus.UPDATING : EndpointStatus.IN_SERVICE,
          desired,
          updating() ? 1 : desired,
          "ml.g5.xlarge",
          clock.instant());
    }

    @Override
    public Physics physics(String endpoint) {
      return PHYSICS;
    }

    @Override
    public Fingerprint fingerprint(String endpoint) {
      throw new UnsupportedOperationException();
    }

    @Override
    public ScalingState scalingState(String endpoint) {
      return ScalingState.none("no plan");
    }

    @Override
    public void setSuspended(String endpoint, SuspendedState state) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void setDesiredInstances(String endpoint, int count) {
      if (updating()) {
        calls.add("refused " + count);
        throw new PlatformException(
            new PlatformException.Reason.InvalidRequest(
                "UpdateEndpointWeightsAndCapacities on "
                    + endpoint
                    + " was refused because the endpoint is still Updating (AWS said: Cannot"
                    + " update in-progress endpoint)"));
      }
      calls.add("set " + count);
      desired = count;
    }

    @Override
    public List<InstanceLog> instanceLogs(String endpoint, Instant since) {
      return List.of();
    }

    @Override
    public Duration finestMetricPeriod() {
      return Duration.ofSeconds(10);
    }

    @Override
    public MetricSeries metric(String endpoint, MetricQuery query) {
      return new MetricSeries(query, List.of());
    }

    @Override
    public Invoker invoker(String endpoint, Transport transport) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {}
  }

  private final FakeClock clock = new FakeClock(Instant.parse("2026-12-07T01:00:00Z"));

  private RetryingPlatform retrying(Platform p) {
    return new RetryingPlatform(p, clock, clock::advance, Backoff.THROTTLING, 1);
  }

  @Test
  void run_desiredRefusedWhileUpdating_waitsForInServiceAndSetsIt() {
    UpdatingPlatform p = new UpdatingPlatform(clock, clock.instant().plusSeconds(40));

    List<String> done = Thaw.run(retrying(p), ENDPOINT, 1);

    assertThat(p.calls).containsExactly("refused 1", "set 1");
    assertThat(p.desired).isEqualTo(1);
    assertThat(done).contains("desired 2 -> 1");
  }

  @Test
  void run_desiredRefusedWhileUpdating_saysItWaits() {
    UpdatingPlatform p = new UpdatingPlatform(clock, clock.instant().plusSeconds(40));
    List<String> progress = new ArrayList<>();

    Thaw.run(retrying(p), ENDPOINT, 1, progress::add);

    assertThat(progress)
        .singleElement()
        .asString()
        .contains("desired 1 was refused while speech-thaw is UPDATING")
        .contains("waiting for InService");
  }

  @Test
  void run_stillUpdatingPastTheStartUpBound_failsNamingTheStatusAndThawAgain() {
    UpdatingPlatform p = new UpdatingPlatform(clock, clock.instant().plus(Duration.ofMinutes(10)));

    assertThatThrownBy(() -> Thaw.run(retrying(p), ENDPOINT, 1, line -> {}))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("was still UPDATING after PT2M")
        .hasMessageContaining("run thaw again once `speech-infra status` shows InService");
    assertThat(p.desired).isEqualTo(2);
  }
}
