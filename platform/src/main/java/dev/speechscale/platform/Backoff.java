package dev.speechscale.platform;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with full jitter, as the AWS SDK's standard and adaptive retry strategies
 * apply it to throttling errors: before retry {@code n} (0 for the first) wait a uniformly random
 * time in {@code [0, min(cap, base * 2^n)]}. Full jitter spreads retrying clients apart, so they do
 * not throttle each other again in lock step.
 *
 * @param base the ceiling before the first retry (the SDK uses 1 s for throttling errors)
 * @param cap the largest ceiling (the SDK's 20 s)
 * @param maxAttempts attempts in all, the first included; more than the SDK's 3 because a
 *     measurement that fails on a throttle costs minutes of load, not one request
 */
public record Backoff(Duration base, Duration cap, int maxAttempts) {
  /** 1 s base, 20 s cap, 10 attempts: at most about 111 s of waiting before giving up. */
  public static final Backoff THROTTLING =
      new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(20), 10);

  public Backoff {
    if (base.isNegative() || base.isZero() || cap.compareTo(base) < 0) {
      throw new IllegalArgumentException(
          "backoff base (" + base + ") must be positive and at most the cap (" + cap + ")");
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts (" + maxAttempts + ") must be at least 1");
    }
  }

  /** The ceiling before retry {@code retry} (0-based): {@code min(cap, base * 2^retry)}. */
  public Duration ceiling(int retry) {
    if (retry < 0) {
      throw new IllegalArgumentException("retry (" + retry + ") must not be negative");
    }
    long capNanos = cap.toNanos();
    long ceilingNanos = base.toNanos();
    for (int i = 0; i < retry && ceilingNanos < capNanos; i++) {
      ceilingNanos *= 2;
    }
    return Duration.ofNanos(Math.min(cap.toNanos(), ceilingNanos));
  }

  /** The wait before retry {@code retry}: uniform in {@code [0, ceiling(retry)]}. */
  public Duration delay(int retry, RandomGenerator random) {
    long ceilingNanos = ceiling(retry).toNanos();
    return Duration.ofNanos(random.nextLong(ceilingNanos + 1));
  }
}
