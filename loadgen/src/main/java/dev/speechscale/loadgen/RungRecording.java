package dev.speechscale.loadgen;

import java.util.List;

/**
 * Everything one closed-loop rung produced, raw: every request, in completion order, with the
 * rung's start, the end of its hold (no request is sent after it) and when the last in-flight
 * request ended.
 *
 * @param runIndex the ladder run
 * @param stepIndex the rung's position in its run
 * @param concurrency N
 * @param startNanos when the workers started
 * @param holdEndNanos start + hold, or the moment {@link ClosedLoopDriver#stop()} was called
 * @param endNanos when the last worker finished
 * @param events every request, ordered by end time
 */
public record RungRecording(
    int runIndex,
    int stepIndex,
    int concurrency,
    long startNanos,
    long holdEndNanos,
    long endNanos,
    List<RequestEvent> events) {
  public RungRecording {
    events = List.copyOf(events);
  }
}
