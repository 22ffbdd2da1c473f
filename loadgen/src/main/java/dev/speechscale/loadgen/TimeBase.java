package dev.speechscale.loadgen;

import dev.speechscale.platform.NanoClock;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;

/**
 * Anchors the monotonic clock to wall time once, so monotonic timestamps can be shown as instants
 * (event logs, metric windows) without ever reading the wall clock for an interval.
 *
 * @param originNanos a monotonic reading
 * @param originWall the wall-clock instant at that reading
 */
public record TimeBase(long originNanos, Instant originWall) {
  public TimeBase {
    Objects.requireNonNull(originWall, "originWall");
  }

  public static TimeBase now(NanoClock clock, Clock wall) {
    return new TimeBase(clock.nanoTime(), wall.instant());
  }

  /** The wall-clock instant of a monotonic reading. */
  public Instant at(long nanos) {
    return originWall.plusNanos(nanos - originNanos);
  }
}
