package dev.speechscale.platform;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock that stands still until the test moves it (typically from an injected pause). */
public final class FakeClock extends Clock {
  private Instant now;

  public FakeClock(Instant start) {
    this.now = start;
  }

  /** Moves the clock forward by {@code d}. */
  public void advance(Duration d) {
    now = now.plus(d);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now;
  }
}
