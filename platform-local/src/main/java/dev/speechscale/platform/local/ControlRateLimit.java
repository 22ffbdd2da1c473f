package dev.speechscale.platform.local;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The control API's rate limit ({@code local.aws_physics.control_calls_per_s}): a token bucket that
 * refills at the configured calls per second and holds at most one second of them (at least one
 * call), as AWS meters its control-plane APIs. The supervisors share one bucket in the state
 * directory ({@link SharedTokenBucket}): the limit is the platform's, all endpoints together, as
 * AWS's is the account's, not each endpoint's. A call that finds the bucket empty is throttled; the
 * caller answers it with AWS's {@code ThrottlingException}. Counts both per minute, so the
 * supervisor's log shows how close the endpoint's callers came to the limit. Time is passed in
 * (nanoseconds of a monotonic clock), so tests drive it.
 */
final class ControlRateLimit {
  private final double callsPerSecond;
  private final double burst;
  private double tokens;
  private long lastNanos;
  private boolean started;
  private long minute = Long.MIN_VALUE;
  private long accepted;
  private long throttled;

  private final @Nullable SharedTokenBucket shared;

  /** A limit of {@code callsPerSecond} of this endpoint's own; 0 = unlimited. */
  ControlRateLimit(double callsPerSecond) {
    this(callsPerSecond, null);
  }

  /**
   * A limit of {@code callsPerSecond} drawn from the bucket in {@code sharedFile} (the state
   * directory's: one bucket for every endpoint of the platform, as AWS meters per account), or of
   * its own when {@code null}; 0 = unlimited. Times passed to {@link #tryAcquire} must then be
   * wall-clock epoch nanoseconds, the clock the supervisors share.
   */
  ControlRateLimit(double callsPerSecond, java.nio.file.@Nullable Path sharedFile) {
    if (callsPerSecond < 0) {
      throw new IllegalArgumentException(
          "control_calls_per_s (" + callsPerSecond + ") must not be negative; 0 = unlimited");
    }
    this.callsPerSecond = callsPerSecond;
    this.burst = Math.max(1, callsPerSecond);
    this.tokens = burst;
    this.shared =
        sharedFile != null && callsPerSecond > 0
            ? new SharedTokenBucket(sharedFile, callsPerSecond)
            : null;
  }

  boolean limited() {
    return callsPerSecond > 0;
  }

  double callsPerSecond() {
    return callsPerSecond;
  }

  /**
   * Whether a call at {@code nowNanos} may proceed; takes a token when it may.
   *
   * @param epochMinute the wall-clock minute of the call, for the per-minute count
   * @param minuteEnded told the previous minute's counts when a new minute begins
   */
  synchronized boolean tryAcquire(long nowNanos, long epochMinute, MinuteReport minuteEnded) {
    if (epochMinute != minute) {
      if (minute != Long.MIN_VALUE && (accepted > 0 || throttled > 0)) {
        minuteEnded.report(minute, accepted, throttled);
      }
      minute = epochMinute;
      accepted = 0;
      throttled = 0;
    }
    boolean ok = !limited() || take(nowNanos);
    if (ok) {
      accepted++;
    } else {
      throttled++;
    }
    return ok;
  }

  private boolean take(long nowNanos) {
    if (shared != null) {
      return shared.tryTake(nowNanos);
    }
    if (started) {
      tokens = Math.min(burst, tokens + (nowNanos - lastNanos) / 1e9 * callsPerSecond);
    }
    started = true;
    lastNanos = nowNanos;
    if (tokens >= 1) {
      tokens -= 1;
      return true;
    }
    return false;
  }

  /** Receives one finished minute's counts. */
  @FunctionalInterface
  interface MinuteReport {
    void report(long epochMinute, long accepted, long throttled);

    /** The log line for a minute. */
    static String line(long epochMinute, long accepted, long throttled, double limitPerSecond) {
      return String.format(
          Locale.ROOT,
          "control API minute %s: %d calls answered, %d throttled (%d attempts; limit %s)",
          java.time.Instant.ofEpochSecond(epochMinute * 60),
          accepted,
          throttled,
          accepted + throttled,
          limitPerSecond > 0
              ? String.format(
                  Locale.ROOT, "%.1f calls/s = %.0f/min", limitPerSecond, limitPerSecond * 60)
              : "none");
    }
  }
}
