package dev.speechscale.platform;

import org.jspecify.annotations.Nullable;

/**
 * What happened to one request, timed on the invoker's {@link NanoClock}.
 *
 * @param outcome how it ended
 * @param status the HTTP-like status (200, 503, ...; 0 when the transport failed first)
 * @param sentNanos when the request was sent
 * @param firstAudioNanos when the first audio byte (after any WAV header) arrived; -1 if never
 * @param completedNanos when the response ended
 * @param audioBytes audio bytes received (WAV header excluded)
 * @param error what went wrong, or {@code null}
 * @param breakdown the server's queue wait and engine time and the audio's length, as far as the
 *     response said ({@link ResponseBreakdown#UNKNOWN} when it said nothing)
 */
public record Invocation(
    Outcome outcome,
    int status,
    long sentNanos,
    long firstAudioNanos,
    long completedNanos,
    long audioBytes,
    @Nullable String error,
    ResponseBreakdown breakdown) {

  public Invocation {
    java.util.Objects.requireNonNull(breakdown, "breakdown");
  }

  /** How a request ended. */
  public enum Outcome {
    /** Audio arrived and the response completed. */
    OK,
    /** The container refused it at admission (503 queue_saturated) or as stale (408). */
    REJECTED,
    /** The request was bad (4xx other than 408). */
    CLIENT_ERROR,
    /** The container or platform failed (5xx, or an in-band error after the 200). */
    SERVER_ERROR,
    /** The connection failed or timed out. */
    TRANSPORT_ERROR
  }

  public boolean ok() {
    return outcome == Outcome.OK;
  }

  /** Time to first audio byte from {@code startNanos} (an intended send time), or -1. */
  public long ttfabNanos(long startNanos) {
    return firstAudioNanos < 0 ? -1 : firstAudioNanos - startNanos;
  }
}
