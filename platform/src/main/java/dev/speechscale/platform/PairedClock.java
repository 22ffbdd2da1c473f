package dev.speechscale.platform;

import java.time.Clock;

/**
 * {@link NanoClock#of}: {@code monotonic}'s readings with {@code wall} beside them; the component
 * {@code wall} is the clock's {@link NanoClock#wall()}.
 *
 * @param wall the wall clock
 * @param monotonic the clock intervals are read from
 */
record PairedClock(Clock wall, NanoClock monotonic) implements NanoClock {
  @Override
  public long nanoTime() {
    return monotonic.nanoTime();
  }
}
