package dev.speechscale.admission;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Bounded waiting for a condition another thread makes true; no sleeps. */
final class Await {
  private Await() {}

  static void until(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after 10 s waiting for: " + what);
      }
      Thread.onSpinWait();
    }
  }
}
