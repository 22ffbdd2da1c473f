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
 * Waits under a stretched instance start-up, on fake time: an instance takes 6 minutes to come into
 * service (a SageMaker instance provisioning), which the 5-minute settle qmax and ttotal had and
 * the 3-minute one validate had would not wait for. The derived bounds do; a real 6 minutes never
 * passes, the pause moves the clock.
 */
class StretchedStartTest {
  static final String ENDPOINT = "speech-slow";
  static final Duration START = Duration.ofMinutes(6);
  static final Physics SLOW =
      new Physics(Duration.ofSeconds(1), Duration.ofMinutes(2), Duration.ofMinutes(7));

  /** One endpoint whose new instances come into service {@link #START} after desired is raised. */
  static final class SlowPlatform implements Platform {
    final FakeClock clock;
    int desired = 1;
    int inService = 1;
    Instant raisedAt;
    int describes;

    SlowPlatform(FakeClock clock) {
      this.clock = clock;
    }

    @Override
    public String name() {
      return "slow";
    }

    @Override
    public EndpointDescription describe(String endpoint) {
      describes++;
      if (raisedAt != null && !clock.instant().isBefore(raisedAt.plus(START))) {
        inService = desired;
      }
      return new EndpointDescription(
          endpoint,
          inService == desired ? EndpointStatus.IN_SERVICE : EndpointStatus.UPDATING,
          desired,
          inService,
          "ml.g5.xlarge",
          clock.instant());
    }

    @Override
    public Physics physics(String endpoint) {
      return SLOW;
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
    public void setSuspended(String endpoint, SuspendedState state) {}

    @Override
    public void setDesiredInstances(String endpoint, int count) {
      if (count > inService) {
        raisedAt = clock.instant();
      } else {
        inService = count;
      }
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

  private final FakeClock clock = new FakeClock(Instant.parse("2026-12-01T12:00:00Z"));
  private final SlowPlatform slow = new SlowPlatform(clock);
  private final List<Duration> pauses = new ArrayList<>();
  private final RetryingPlatform platform =
      new RetryingPlatform(
          slow,
          clock,
          d -> {
            pauses.add(d);
            clock.advance(d);
          },
          Backoff.THROTTLING,
          1);

  @Test
  void pin_settleDerivedFromThePlatform_waitsOutASixMinuteStart() {
    List<String> progress = new ArrayList<>();

    try (Freeze f =
        Freeze.pin(platform, ENDPOINT, 2, Timeouts.settle(SLOW), clock, progress::add)) {
      assertThat(slow.describe(ENDPOINT).currentInstances()).isEqualTo(2);
      assertThat(f.previousDesired()).isEqualTo(1);
    }
    assertThat(progress).anyMatch(l -> l.startsWith("froze " + ENDPOINT));
  }

  @Test
  void pin_theOldFiveMinuteConstant_wouldHaveGivenUpOnTheSameStart() {
    assertThatThrownBy(
            () -> Freeze.pin(platform, ENDPOINT, 2, Duration.ofMinutes(5), clock, line -> {}))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("did not settle at 2 instance(s) within PT5M");
  }

  @Test
  void pin_settleDerivedFromMeasuredT_waitsWhereTheOldThreeMinutesGaveUp() {
    double tTotalS = START.toSeconds() + 60; // measured T_total on this platform, plus lag

    try (Freeze f =
        Freeze.pin(platform, ENDPOINT, 2, Timeouts.settle(tTotalS, SLOW), clock, line -> {})) {
      assertThat(slow.describe(ENDPOINT).currentInstances()).isEqualTo(2);
    }
    assertThatThrownBy(
            () -> Freeze.pin(platform, ENDPOINT, 3, Duration.ofMinutes(3), clock, line -> {}))
        .isInstanceOf(ChainException.class);
  }

  @Test
  void pin_pollsAtThePlatformsInterval_notFasterThanItsLimitAllows() {
    try (Freeze f = Freeze.pin(platform, ENDPOINT, 2, Timeouts.settle(SLOW), clock, line -> {})) {
      assertThat(pauses)
          .isNotEmpty()
          .allSatisfy(d -> assertThat(d).isEqualTo(SLOW.minPollInterval()));
      // one describe a second for six minutes, not five a second
      assertThat(slow.describes).isBetween(360, 370);
    }
  }

  @Test
  void timeouts_derivedBounds_exceedWhatTheyBound() {
    assertThat(Timeouts.settle(SLOW)).isGreaterThan(SLOW.instanceStartBound());
    assertThat(Timeouts.settle(400, SLOW)).isGreaterThanOrEqualTo(Duration.ofSeconds(800));
    assertThat(Timeouts.recovery(SLOW, Duration.ofSeconds(60)))
        .isEqualTo(Duration.ofMinutes(9).plusSeconds(2));
    assertThatThrownBy(() -> Timeouts.settle(0, SLOW))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("re-run ttotal");
  }

  @Test
  void joinDeadline_isTheLastWindowPlusDelayPlusGracePeriodsPlusTwoPolls() {
    Instant end = Instant.parse("2026-12-01T12:00:00Z");

    Instant deadline =
        ServerConcurrency.deadline(end, SLOW, Duration.ofSeconds(10), Duration.ofSeconds(10));

    assertThat(Duration.between(end, deadline))
        .isEqualTo(Duration.ofMinutes(2).plusSeconds(50).plusSeconds(20));
  }

  @Test
  void loadDrain_aPlatformWithAFiveMinuteRequestTimeout_waitsLongerThanTheOldConstants() {
    Physics longRequests =
        new Physics(
            Duration.ofSeconds(1), Duration.ZERO, Duration.ofMinutes(7), Duration.ofMinutes(5));

    Duration drain = Timeouts.loadDrain(longRequests);

    // ttotal joined its probe for 90 s and validate its scale-out load for 60 s, whatever the
    // invoker's request timeout: a worker still inside a 5-minute request outlived both
    assertThat(drain).isEqualTo(Duration.ofMinutes(5).plusSeconds(2));
    assertThat(drain).isGreaterThan(Duration.ofSeconds(90));
  }

  @Test
  void scaleOutLoad_outlastsTheWaitForT_byTheDrainNotAFixed30s() {
    Duration t = Duration.ofSeconds(400);

    assertThat(Timeouts.scaleOutLoad(t, SLOW))
        .isEqualTo(t.plus(Physics.DEFAULT_REQUEST_TIMEOUT).plusSeconds(2));
  }
}
