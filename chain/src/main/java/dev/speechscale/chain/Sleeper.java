package dev.speechscale.chain;

import java.time.Duration;

/** Polling pauses for waits that have a bound; interruption becomes a ChainException. */
final class Sleeper {
  private Sleeper() {}

  static void sleep(Duration d) {
    try {
      Thread.sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChainException("interrupted", e);
    }
  }
}
