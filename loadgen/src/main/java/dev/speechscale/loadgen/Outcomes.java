package dev.speechscale.loadgen;

import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.ResponseBreakdown;

/** Status → outcome, the same table for every transport. */
final class Outcomes {
  private Outcomes() {}

  /**
   * A refusal at admission (503 queue_saturated or shutting_down), a stale request (408) and a
   * throttle (429) are rejections: the server declined the work rather than failing at it. Other
   * 4xx are the client's fault; anything else that is not a 2xx is a server error.
   */
  static Outcome ofStatus(int status) {
    if (status >= 200 && status < 300) {
      return Outcome.OK;
    }
    if (status == 503 || status == 408 || status == 429) {
      return Outcome.REJECTED;
    }
    if (status >= 400 && status < 500) {
      return Outcome.CLIENT_ERROR;
    }
    return Outcome.SERVER_ERROR;
  }

  static Invocation failed(
      Outcome outcome, int status, long sentNanos, long completedNanos, String error) {
    return new Invocation(
        outcome, status, sentNanos, -1, completedNanos, 0, error, ResponseBreakdown.UNKNOWN);
  }
}
