package dev.speechscale.platform;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import org.jspecify.annotations.Nullable;

/**
 * The AWS SDK's adaptive retry mode, client side: no limit until the service throttles, then a
 * token bucket whose fill rate drops to {@value #BETA} of the rate that was throttled and grows
 * back along a CUBIC curve (the congestion-control function the SDK uses) while calls succeed.
 * Callers ask {@link #acquire} how long to wait before a call; time is passed in, so tests drive
 * it.
 *
 * <p>Not thread-safe on its own; {@link RetryingPlatform} serialises access.
 */
final class AdaptiveRate {
  static final double BETA = 0.7;
  private static final double SCALE_CONSTANT = 0.4;
  private static final double MIN_RATE_PER_SECOND = 0.5;
  private static final Duration MEASURE_WINDOW = Duration.ofSeconds(1);

  private final Deque<Instant> recent = new ArrayDeque<>();
  private boolean enabled;
  private double fillRatePerSecond;
  private double maxRatePerSecond;
  private double tokens;
  private @Nullable Instant lastRefill;
  private @Nullable Instant lastThrottle; // set with enabled, by the first throttle

  /** Whether the service has throttled and a client-side limit applies. */
  boolean enabled() {
    return enabled;
  }

  /** The current client-side limit, calls/s; infinite until the first throttle. */
  double fillRatePerSecond() {
    return enabled ? fillRatePerSecond : Double.POSITIVE_INFINITY;
  }

  /** Takes a token for a call at {@code now}; returns how long to wait first (zero: go). */
  Duration acquire(Instant now) {
    record(now);
    if (!enabled) {
      return Duration.ZERO;
    }
    refill(now);
    tokens -= 1;
    if (tokens >= 0) {
      return Duration.ZERO;
    }
    return Duration.ofNanos((long) Math.ceil(-tokens / fillRatePerSecond * 1e9));
  }

  /** The service throttled a call at {@code now}: cut the rate to BETA of what was throttled. */
  void throttled(Instant now) {
    double measured = measuredRate(now);
    maxRatePerSecond = enabled ? Math.min(measured, fillRatePerSecond) : measured;
    maxRatePerSecond = Math.max(MIN_RATE_PER_SECOND, maxRatePerSecond);
    refill(now);
    fillRatePerSecond = Math.max(MIN_RATE_PER_SECOND, maxRatePerSecond * BETA);
    tokens = Math.min(tokens, 1);
    enabled = true;
    lastThrottle = now;
  }

  /** A call succeeded at {@code now}: grow the rate back along the CUBIC curve. */
  void succeeded(Instant now) {
    Instant throttledAt = lastThrottle;
    if (!enabled || throttledAt == null) {
      return;
    }
    refill(now);
    double t = Duration.between(throttledAt, now).toNanos() / 1e9;
    double k = Math.cbrt(maxRatePerSecond * (1 - BETA) / SCALE_CONSTANT);
    double cubic = SCALE_CONSTANT * Math.pow(t - k, 3) + maxRatePerSecond;
    fillRatePerSecond =
        Math.max(MIN_RATE_PER_SECOND, Math.min(cubic, 2 * Math.max(1, measuredRate(now))));
  }

  private void refill(Instant now) {
    if (lastRefill != null && now.isAfter(lastRefill) && enabled) {
      double seconds = Duration.between(lastRefill, now).toNanos() / 1e9;
      tokens = Math.min(Math.max(1, fillRatePerSecond), tokens + seconds * fillRatePerSecond);
    }
    lastRefill = now;
  }

  private void record(Instant now) {
    recent.addLast(now);
    trim(now);
  }

  private double measuredRate(Instant now) {
    trim(now);
    return recent.size() / (MEASURE_WINDOW.toNanos() / 1e9);
  }

  private void trim(Instant now) {
    Instant horizon = now.minus(MEASURE_WINDOW);
    while (!recent.isEmpty() && recent.peekFirst().isBefore(horizon)) {
      recent.removeFirst();
    }
  }
}
