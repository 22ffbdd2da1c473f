package dev.speechscale.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RetryingPlatformTest {
  private static final Instant T0 = Instant.parse("2026-12-01T12:00:30Z");
  private static final String ENDPOINT = "speech-retry";

  /** Describe throttles {@code throttles} times, then answers; every other call is refused. */
  static final class Throttling implements Platform {
    int throttles;
    int describes;
    boolean retriesItself;
    RuntimeException otherwise;

    @Override
    public boolean retriesThrottling() {
      return retriesItself;
    }

    @Override
    public String name() {
      return "throttling";
    }

    @Override
    public EndpointDescription describe(String endpoint) {
      describes++;
      if (otherwise != null) {
        throw otherwise;
      }
      if (throttles > 0) {
        throttles--;
        throw new PlatformException(new PlatformException.Reason.Throttled("GET /status"));
      }
      return new EndpointDescription(endpoint, EndpointStatus.IN_SERVICE, 1, 1, "local.1cpu", T0);
    }

    @Override
    public Fingerprint fingerprint(String endpoint) {
      throw new UnsupportedOperationException();
    }

    @Override
    public ScalingState scalingState(String endpoint) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void setSuspended(String endpoint, SuspendedState state) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void setDesiredInstances(String endpoint, int count) {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<InstanceLog> instanceLogs(String endpoint, Instant since) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Duration finestMetricPeriod() {
      return Duration.ofSeconds(1);
    }

    @Override
    public MetricSeries metric(String endpoint, MetricQuery query) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Invoker invoker(String endpoint, Transport transport) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void close() {}
  }

  private final FakeClock clock = new FakeClock(T0);
  private final List<Duration> pauses = new ArrayList<>();
  private final Throttling platform = new Throttling();

  private RetryingPlatform retrying(long seed) {
    return new RetryingPlatform(
        platform,
        clock,
        d -> {
          pauses.add(d);
          clock.advance(d);
        },
        Backoff.THROTTLING,
        seed);
  }

  @Test
  void describe_throttledTwice_retriesAndAnswers() {
    platform.throttles = 2;

    EndpointDescription d = retrying(1).describe(ENDPOINT);

    assertThat(d.status()).isEqualTo(EndpointStatus.IN_SERVICE);
    assertThat(platform.describes).isEqualTo(3);
  }

  @Test
  void describe_throttled_backsOffWithTheSeededFullJitterSchedule() {
    platform.throttles = 3;

    retrying(5).describe(ENDPOINT);

    SplittableRandom same = new SplittableRandom(5);
    List<Duration> backoffs =
        List.of(
            Backoff.THROTTLING.delay(0, same),
            Backoff.THROTTLING.delay(1, same),
            Backoff.THROTTLING.delay(2, same));
    // the pauses are the three backoffs, with the adaptive rate's waits (if any) between them
    assertThat(pauses).containsSubsequence(backoffs);
    assertThat(pauses.stream().filter(backoffs::contains)).hasSize(3);
  }

  @Test
  void describe_throttledEveryTime_givesUpAfterTheAttemptsNamingTheCall() {
    platform.throttles = Integer.MAX_VALUE;

    assertThatThrownBy(() -> retrying(1).describe(ENDPOINT))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("describe " + ENDPOINT)
        .hasMessageContaining("throttled " + Backoff.THROTTLING.maxAttempts() + " times")
        .satisfies(e ->
            assertThat(((PlatformException) e).reason())
                .isInstanceOf(PlatformException.Reason.Throttled.class));
    assertThat(platform.describes).isEqualTo(Backoff.THROTTLING.maxAttempts());
  }

  @Test
  void describe_platformRetriesThrottlingItself_isSentOnceAndNotRetriedOnTop() {
    platform.throttles = Integer.MAX_VALUE;
    platform.retriesItself = true;
    RetryingPlatform r = retrying(1);

    assertThatThrownBy(() -> r.describe(ENDPOINT))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("GET /status")
        .satisfies(e ->
            assertThat(((PlatformException) e).reason())
                .isInstanceOf(PlatformException.Reason.Throttled.class));
    assertThat(platform.describes).isEqualTo(1);
    assertThat(pauses).isEmpty();
    assertThat(r.calls().totals(T0)[1]).isEqualTo(1);
  }

  @Test
  void describe_otherFailure_passesThroughWithoutRetry() {
    platform.otherwise =
        new PlatformException(new PlatformException.Reason.NotFound(ENDPOINT, "deploy it"));

    assertThatThrownBy(() -> retrying(1).describe(ENDPOINT))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("not found");
    assertThat(platform.describes).isEqualTo(1);
    assertThat(pauses).isEmpty();
  }

  @Test
  void calls_everyAttempt_isCountedInItsMinuteWithTheThrottledOnes() {
    platform.throttles = 2;
    RetryingPlatform r = retrying(1);

    r.describe(ENDPOINT);

    long[] totals = r.calls().totals(T0);
    assertThat(totals[0]).isEqualTo(3);
    assertThat(totals[1]).isEqualTo(2);
    assertThat(r.calls().perMinute(T0).values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(3);
  }

  @Test
  void of_alreadyRetrying_isTheSameInstance() {
    RetryingPlatform r = retrying(1);

    assertThat(RetryingPlatform.of(r)).isSameAs(r);
  }

  @Test
  void pollInterval_isThePlatformsPhysics() {
    assertThat(retrying(1).pollInterval(ENDPOINT)).isEqualTo(Physics.DEFAULTS.minPollInterval());
  }

  @Test
  void everyPlatformMethod_isForwardedNotLeftToItsDefault() {
    // a default method the wrapper does not override answers for the wrapper, not the platform
    // (qmax saw no CPU limit through it once): every Platform method must be overridden here
    java.util.List<String> missing = new java.util.ArrayList<>();
    for (java.lang.reflect.Method m : Platform.class.getMethods()) {
      if (java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      boolean declared =
          java.util.Arrays.stream(RetryingPlatform.class.getDeclaredMethods())
              .anyMatch(d ->
                  d.getName().equals(m.getName())
                      && java.util.Arrays.equals(d.getParameterTypes(), m.getParameterTypes()));
      if (!declared) {
        missing.add(m.getName());
      }
    }
    org.assertj.core.api.Assertions.assertThat(missing).isEmpty();
  }
}
