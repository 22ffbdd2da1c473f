package dev.speechscale.loadgen;

/**
 * Receives every request as it completes, on the thread that ran it: implementations must be
 * thread-safe and quick (a slow listener slows its worker, which the client-bound check then
 * flags).
 */
@FunctionalInterface
public interface RequestListener {
  RequestListener NONE = event -> {};

  void completed(RequestEvent event);

  /**
   * An open-loop arrival that was not sent because the in-flight bound was reached.
   *
   * @param phaseIndex the phase it belonged to
   * @param seq its position in the phase's arrival sequence
   * @param intendedNanos when it should have been sent
   */
  default void dropped(int phaseIndex, long seq, long intendedNanos) {}

  /** A rung or open-loop run ended: a good moment to write buffered output. */
  default void flush() {}
}
