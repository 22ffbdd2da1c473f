package dev.speechscale.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AdaptiveRateTest {
  private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");

  @Test
  void acquire_beforeAnyThrottle_neverWaits() {
    AdaptiveRate rate = new AdaptiveRate();

    for (int i = 0; i < 100; i++) {
      assertThat(rate.acquire(T0.plusMillis(i))).isEqualTo(Duration.ZERO);
    }
    assertThat(rate.enabled()).isFalse();
    assertThat(rate.fillRatePerSecond()).isInfinite();
  }

  @Test
  void throttled_cutsTheRateToBetaOfWhatWasMeasured() {
    AdaptiveRate rate = new AdaptiveRate();
    for (int i = 0; i < 10; i++) {
      rate.acquire(T0.plusMillis(100L * i)); // 10 calls in the last second
    }

    rate.throttled(T0.plusMillis(950));

    assertThat(rate.enabled()).isTrue();
    assertThat(rate.fillRatePerSecond()).isCloseTo(10 * AdaptiveRate.BETA, within());
  }

  @Test
  void acquire_afterThrottle_spacesCallsAtTheFillRate() {
    AdaptiveRate rate = new AdaptiveRate();
    for (int i = 0; i < 10; i++) {
      rate.acquire(T0.plusMillis(100L * i));
    }
    Instant at = T0.plusMillis(950);
    rate.throttled(at);

    Duration first = rate.acquire(at);
    Duration second = rate.acquire(at);

    // the bucket starts empty at 7 calls/s: the calls go 1/7 s and 2/7 s from now
    assertThat(first.toMillis()).isBetween(140L, 145L);
    assertThat(second.toMillis()).isBetween(283L, 288L);
  }

  @Test
  void succeeded_afterThrottle_growsTheRateBackPastItsOldMaximum() {
    AdaptiveRate rate = new AdaptiveRate();
    for (int i = 0; i < 10; i++) {
      rate.acquire(T0.plusMillis(100L * i));
    }
    rate.throttled(T0.plusMillis(950));
    double cut = rate.fillRatePerSecond();

    Instant later = T0.plusSeconds(2);
    for (int i = 0; i < 30; i++) {
      rate.acquire(later.plusMillis(50L * i));
    }
    rate.succeeded(later.plusMillis(1500));
    double early = rate.fillRatePerSecond();
    Instant much = later.plusSeconds(10);
    for (int i = 0; i < 30; i++) {
      rate.acquire(much.plusMillis(30L * i));
    }
    rate.succeeded(much.plusMillis(950));

    assertThat(early).isGreaterThan(cut);
    assertThat(rate.fillRatePerSecond()).isGreaterThan(10);
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e-9);
  }
}
