package dev.speechscale.loadgen;

import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.ResponseBreakdown;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One request as the load generator saw it, timed on the driver's {@link
 * dev.speechscale.platform.NanoClock}.
 *
 * <p>{@code intendedNanos} is when the request <em>should</em> have gone out: in a closed loop the
 * moment its worker became free (a few microseconds before the send: building the request counts),
 * in an open loop its slot in the arrival schedule. Latency and TTFAB are measured from it, so a
 * late send (client backlog, coordinated omission) shows up in the numbers instead of vanishing.
 *
 * @param loadModel {@link LoadModel#CLOSED_LOOP} or {@link LoadModel#OPEN_LOOP}
 * @param runIndex the ladder run (0 outside a ladder)
 * @param stepIndex the rung or open-loop phase index
 * @param concurrency the rung's N (closed loop) or the in-flight bound (open loop)
 * @param seq position in the rung's or phase's request sequence (the text pool index)
 * @param worker the closed-loop worker, or the open-loop connection slot
 * @param intendedNanos intended send time
 * @param sentNanos actual send time
 * @param firstAudioNanos first audio byte, or -1
 * @param completedNanos when the response ended
 * @param outcome how it ended
 * @param status HTTP-like status (0 when the transport failed first)
 * @param audioBytes audio bytes received
 * @param chars characters (code points) of the request's text
 * @param error what went wrong, or {@code null}
 * @param breakdown the server's queue wait and engine time and the audio's length, as far as the
 *     response said
 */
public record RequestEvent(
    LoadModel loadModel,
    int runIndex,
    int stepIndex,
    int concurrency,
    long seq,
    int worker,
    long intendedNanos,
    long sentNanos,
    long firstAudioNanos,
    long completedNanos,
    Outcome outcome,
    int status,
    long audioBytes,
    int chars,
    @Nullable String error,
    ResponseBreakdown breakdown) {

  public RequestEvent {
    Objects.requireNonNull(loadModel, "loadModel");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(breakdown, "breakdown");
  }

  /** How load was generated; the artifact says which model produced a number. */
  public enum LoadModel {
    CLOSED_LOOP,
    OPEN_LOOP;

    /** Computed once: every event-log line writes it, thousands a second under open loop. */
    private final String label = name().toLowerCase(Locale.ROOT).replace('_', '-');

    /** The name in artifacts and event logs: {@code closed-loop}, {@code open-loop}. */
    public String label() {
      return label;
    }
  }

  static RequestEvent of(
      LoadModel model,
      int runIndex,
      int stepIndex,
      int concurrency,
      long seq,
      int worker,
      long intendedNanos,
      int chars,
      Invocation inv) {
    return new RequestEvent(
        model,
        runIndex,
        stepIndex,
        concurrency,
        seq,
        worker,
        intendedNanos,
        inv.sentNanos(),
        inv.firstAudioNanos(),
        inv.completedNanos(),
        inv.outcome(),
        inv.status(),
        inv.audioBytes(),
        chars,
        inv.error(),
        inv.breakdown());
  }

  public boolean ok() {
    return outcome == Outcome.OK;
  }

  /** First audio byte minus the intended send time, or -1 when no audio arrived. */
  public long ttfabNanos() {
    return firstAudioNanos < 0 ? -1 : firstAudioNanos - intendedNanos;
  }

  /** Response end minus the intended send time. */
  public long latencyNanos() {
    return completedNanos - intendedNanos;
  }

  /** Actual minus intended send time: how late the client was. */
  public long sendLagNanos() {
    return sentNanos - intendedNanos;
  }
}
