package dev.speechscale.admission;

import java.time.Duration;

/**
 * The outcome of {@link Permit#awaitTurn(long)}: whether the request got an execution slot.
 *
 * <p>Whatever the outcome, the permit stays open until its owner closes it.
 */
public sealed interface Turn {

  /** How long the request waited in the queue before this outcome. */
  Duration queued();

  /** The request holds an execution slot and may start synthesis. */
  record Started(Duration queued) implements Turn {}

  /**
   * The request was shed before it started: its first byte could no longer arrive by its deadline
   * ({@code lateBy} is how far past the deadline the expected first byte would have been).
   */
  record Shed(Duration queued, Duration lateBy) implements Turn {}

  /** The wait ended because the permit was closed or the waiting thread was interrupted. */
  record Cancelled(Duration queued) implements Turn {}
}
