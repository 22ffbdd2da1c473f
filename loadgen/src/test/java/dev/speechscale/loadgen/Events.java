package dev.speechscale.loadgen;

import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.ResponseBreakdown;

/** Hand-made request events on a fake timeline (milliseconds → nanoseconds). */
final class Events {
  private Events() {}

  static final long MS = 1_000_000L;

  static RequestEvent ok(int worker, long sentMs, long ttfabMs, long endMs) {
    return event(worker, sentMs, sentMs + ttfabMs, endMs, Outcome.OK, 200, 10);
  }

  static RequestEvent rejected(int worker, long sentMs, long endMs) {
    return event(worker, sentMs, -1, endMs, Outcome.REJECTED, 503, 10);
  }

  static RequestEvent failed(int worker, long sentMs, long endMs) {
    return event(worker, sentMs, -1, endMs, Outcome.SERVER_ERROR, 500, 10);
  }

  /** {@code e} as if its response had said {@code b}. */
  static RequestEvent withBreakdown(RequestEvent e, ResponseBreakdown b) {
    return new RequestEvent(
        e.loadModel(),
        e.runIndex(),
        e.stepIndex(),
        e.concurrency(),
        e.seq(),
        e.worker(),
        e.intendedNanos(),
        e.sentNanos(),
        e.firstAudioNanos(),
        e.completedNanos(),
        e.outcome(),
        e.status(),
        e.audioBytes(),
        e.chars(),
        e.error(),
        b);
  }

  static RequestEvent event(
      int worker,
      long sentMs,
      long firstAudioMs,
      long endMs,
      Outcome outcome,
      int status,
      int chars) {
    return new RequestEvent(
        RequestEvent.LoadModel.CLOSED_LOOP,
        0,
        0,
        1,
        0,
        worker,
        sentMs * MS,
        sentMs * MS,
        firstAudioMs < 0 ? -1 : firstAudioMs * MS,
        endMs * MS,
        outcome,
        status,
        outcome == Outcome.OK ? 100 : 0,
        chars,
        null,
        ResponseBreakdown.UNKNOWN);
  }
}
