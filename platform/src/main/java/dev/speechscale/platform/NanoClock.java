package dev.speechscale.platform;

import java.time.Clock;
import java.time.Instant;
import java.util.function.LongFunction;

/**
 * The one clock of the code base: every interval (request latency, deadlines, gate waits,
 * watchdogs) is read from one of these, injected so tests can drive time. {@link #SYSTEM} is the
 * only place production code reads {@link System#nanoTime()}. Wall time for stamps comes from the
 * {@link #wall()} it carries (the system's UTC clock unless {@link #of} pairs it with another) and
 * is never used for an interval; {@link #anchor(Clock)} joins the two. A chain step is given one
 * whole, so a test drives both and no step reaches for the system clock on its own.
 */
@FunctionalInterface
public interface NanoClock {
  /** The JVM's monotonic clock. */
  NanoClock SYSTEM = System::nanoTime;

  /** Monotonic time in nanoseconds; only differences between two readings are meaningful. */
  long nanoTime();

  /** Wall-clock time beside it, for stamps, timelines and deadlines; never for an interval. */
  default Clock wall() {
    return Clock.systemUTC();
  }

  /** The wall clock's current instant. */
  default Instant instant() {
    return wall().instant();
  }

  /** {@code monotonic}'s readings with {@code wall} beside them (tests drive both). */
  static NanoClock of(Clock wall, NanoClock monotonic) {
    return new PairedClock(wall, monotonic);
  }

  /**
   * Reads this clock and {@code wall} once, and maps any reading of this clock to the wall-clock
   * instant it stands for (event logs, metric windows), so no interval is ever read from the wall.
   */
  default LongFunction<Instant> anchor(Clock wall) {
    long originNanos = nanoTime();
    Instant originWall = wall.instant();
    return nanos -> originWall.plusNanos(nanos - originNanos);
  }
}
