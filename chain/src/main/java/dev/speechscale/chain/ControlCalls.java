package dev.speechscale.chain;

import dev.speechscale.platform.Physics;
import dev.speechscale.platform.RetryingPlatform;
import java.time.Instant;
import java.util.Locale;

/** The control-plane calls a step made, per minute, beside what the platform's polling allows. */
final class ControlCalls {
  private ControlCalls() {}

  /** One line: calls, throttled, the busiest minute, and the polling interval it kept. */
  static String summary(RetryingPlatform control, Instant since, String endpoint) {
    long[] totals = control.calls().totals(since);
    Physics physics = control.physics(endpoint);
    return String.format(
        Locale.ROOT,
        "control-plane calls: %d (%d throttled), busiest minute %d, polling every %d ms",
        totals[0],
        totals[1],
        control.calls().peakPerMinute(since),
        physics.minPollInterval().toMillis());
  }
}
