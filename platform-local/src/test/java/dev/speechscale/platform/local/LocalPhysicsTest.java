package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.platform.FakeClock;
import dev.speechscale.platform.Physics;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LocalPhysicsTest {
  @Test
  void physics_off_isToday200MsPollingNoDelayAndTheHealthCheckBound() {
    Physics p = LocalPlatform.physics(EndpointConfig.Local.DEFAULTS);

    assertThat(p.minPollInterval()).isEqualTo(Duration.ofMillis(200));
    assertThat(p.metricPublicationDelay()).isZero();
    assertThat(p.instanceStartBound()).isEqualTo(Duration.ofSeconds(600));
  }

  @Test
  void physics_awsFigures_pollsSoThreePollersStayUnderTheLimit() {
    Physics p =
        LocalPlatform.physics(
            new EndpointConfig.Local(1.0, 600, new EndpointConfig.AwsPhysics(60, 5, 60)));

    assertThat(p.minPollInterval()).isEqualTo(Duration.ofMillis(600));
    assertThat(3 * 1000.0 / p.minPollInterval().toMillis()).isLessThanOrEqualTo(5);
    assertThat(p.metricPublicationDelay()).isEqualTo(Duration.ofSeconds(60));
    assertThat(p.instanceStartBound()).isEqualTo(Duration.ofSeconds(660));
  }

  @Test
  void physics_generousLimit_neverPollsFasterThanToday() {
    Physics p =
        LocalPlatform.physics(
            new EndpointConfig.Local(1.0, 30, new EndpointConfig.AwsPhysics(0, 1000, 0)));

    assertThat(p.minPollInterval()).isEqualTo(Duration.ofMillis(200));
    assertThat(p.instanceStartBound()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void physics_requestTimeout_isTheRoutersReadTimeoutTheInvokerAlsoUses() {
    Physics p = LocalPlatform.physics(EndpointConfig.Local.DEFAULTS);

    assertThat(p.requestTimeout()).isEqualTo(UpstreamConnection.READ_TIMEOUT);
  }

  @Test
  void awaitDrained_requestEndingJustInsideTheRequestTimeout_isWaitedFor() throws Exception {
    FakeClock clock = new FakeClock(Instant.parse("2026-12-01T12:00:00Z"));
    Backend b = new Backend("i-local-9", "127.0.0.1", 1);
    b.acquire();
    Instant ends = clock.instant().plus(LocalPlatform.REQUEST_TIMEOUT).minusMillis(1);

    boolean drained =
        Supervisor.awaitDrained(
            b,
            clock,
            Supervisor.DRAIN_BOUND,
            d -> {
              clock.advance(d);
              if (!clock.instant().isBefore(ends) && b.inFlight() > 0) {
                b.release();
              }
            });

    assertThat(drained).isTrue();
    assertThat(Supervisor.DRAIN_BOUND).isGreaterThan(LocalPlatform.REQUEST_TIMEOUT);
  }

  @Test
  void awaitDrained_requestNoClientWaitsFor_givesUpAtTheBound() throws Exception {
    FakeClock clock = new FakeClock(Instant.parse("2026-12-01T12:00:00Z"));
    Instant start = clock.instant();
    Backend b = new Backend("i-local-9", "127.0.0.1", 1);
    b.acquire();

    boolean drained =
        Supervisor.awaitDrained(b, clock, Supervisor.DRAIN_BOUND, d -> clock.advance(d));

    assertThat(drained).isFalse();
    assertThat(Duration.between(start, clock.instant())).isEqualTo(Supervisor.DRAIN_BOUND);
  }
}
