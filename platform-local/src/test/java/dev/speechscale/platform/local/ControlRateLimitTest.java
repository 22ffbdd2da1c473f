package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ControlRateLimitTest {
  private static final long SECOND = 1_000_000_000L;
  private final List<long[]> minutes = new ArrayList<>();

  private boolean call(ControlRateLimit limit, long nanos) {
    return limit.tryAcquire(
        nanos, nanos / (60 * SECOND), (m, a, t) -> minutes.add(new long[] {m, a, t}));
  }

  @Test
  void tryAcquire_aBurstAboveTheRate_isThrottledPastOneSecondsWorth() {
    ControlRateLimit limit = new ControlRateLimit(5);
    int ok = 0;
    for (int i = 0; i < 20; i++) {
      ok += call(limit, SECOND + i) ? 1 : 0; // 20 calls within 20 ns
    }

    assertThat(ok).isEqualTo(5);
  }

  @Test
  void tryAcquire_atTheRate_isNeverThrottled() {
    ControlRateLimit limit = new ControlRateLimit(5);
    for (int i = 0; i < 100; i++) {
      assertThat(call(limit, SECOND + i * SECOND / 5)).as("call %d", i).isTrue();
    }
  }

  @Test
  void tryAcquire_afterThrottling_refillsAtTheRate() {
    ControlRateLimit limit = new ControlRateLimit(5);
    for (int i = 0; i < 5; i++) {
      call(limit, SECOND);
    }
    assertThat(call(limit, SECOND)).isFalse();

    assertThat(call(limit, SECOND + SECOND / 10)).isFalse(); // half a token back
    assertThat(call(limit, SECOND + SECOND / 5)).isTrue(); // one token back
  }

  @Test
  void tryAcquire_unlimited_neverThrottles() {
    ControlRateLimit limit = new ControlRateLimit(0);
    for (int i = 0; i < 10_000; i++) {
      assertThat(call(limit, SECOND)).isTrue();
    }
    assertThat(limit.limited()).isFalse();
  }

  @Test
  void tryAcquire_newMinute_reportsThePreviousMinutesCounts() {
    ControlRateLimit limit = new ControlRateLimit(1);
    call(limit, 60 * SECOND);
    call(limit, 60 * SECOND + 1); // throttled
    call(limit, 61 * SECOND);

    call(limit, 120 * SECOND);

    assertThat(minutes).hasSize(1);
    assertThat(minutes.getFirst()).containsExactly(1, 2, 1);
  }

  @Test
  void line_namesCallsThrottledAndTheLimitPerMinute() {
    assertThat(ControlRateLimit.MinuteReport.line(29_000_000L, 280, 3, 5))
        .contains("280 calls answered")
        .contains("3 throttled")
        .contains("5.0 calls/s = 300/min");
  }

  @Test
  void tryAcquire_twoEndpointsOfOnePlatform_drawOnOneBucket(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path root) {
    // AWS meters control-plane calls per account and Region: two endpoints' supervisors share the
    // state directory's bucket, so together they get 2 calls/s, not 2 each.
    java.nio.file.Path bucket = root.resolve(ControlServer.SHARED_BUCKET);
    ControlRateLimit a = new ControlRateLimit(2, bucket);
    ControlRateLimit b = new ControlRateLimit(2, bucket);
    long t0 = 1_796_000_000L * SECOND;

    assertThat(call(a, t0)).isTrue();
    assertThat(call(b, t0 + 1)).isTrue();
    assertThat(call(a, t0 + 2)).as("a's third call of the pair's burst").isFalse();
    assertThat(call(b, t0 + 3)).as("b has no bucket of its own").isFalse();
    assertThat(call(b, t0 + SECOND / 2 + 10)).as("half a second refills one call").isTrue();
    assertThat(call(a, t0 + SECOND / 2 + 11)).isFalse();

    ControlRateLimit own = new ControlRateLimit(2);
    assertThat(call(own, t0 + 4)).as("a limit without the shared file is its own").isTrue();
  }
}
