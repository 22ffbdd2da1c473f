package dev.speechscale.chain;

import dev.speechscale.platform.NanoClock;
import java.time.Clock;
import java.time.Instant;

/**
 * The one time source a chain step is given: wall time for artifacts, timelines and deadlines, and
 * monotonic time for request latency (never measured on the wall clock, which steps). Injected
 * whole, so a test drives both and no step reaches for the system clock on its own.
 *
 * @param wall wall-clock time
 * @param monotonic monotonic nanoseconds
 */
public record ChainClock(Clock wall, NanoClock monotonic) {

  /** The system's UTC wall clock and {@link NanoClock#SYSTEM}. */
  public static ChainClock system() {
    return new ChainClock(Clock.systemUTC(), NanoClock.SYSTEM);
  }

  /** The wall clock's current instant. */
  public Instant instant() {
    return wall.instant();
  }
}
