package dev.speechscale.admission;

import dev.speechscale.platform.NanoClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker that only moves when a test advances it. */
final class FakeTicker implements NanoClock {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);

  @Override
  public long nanoTime() {
    return now.get();
  }

  void advance(Duration by) {
    now.addAndGet(by.toNanos());
  }

  long plus(Duration d) {
    return now.get() + d.toNanos();
  }
}
