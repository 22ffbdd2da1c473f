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

  /**
   * An open-loop schedule starts at {@code startNanos}: every intended time of the run is an offset
   * from it (what a shard's event log records, so shards' arrivals can be compared).
   */
  default void scheduleStarted(long startNanos) {}

  /** A rung or open-loop run ended: a good moment to write buffered output. */
  default void flush() {}

  /** {@code first}, then {@code second}, told of every request, drop and flush. */
  static RequestListener both(RequestListener first, RequestListener second) {
    return new RequestListener() {
      @Override
      public void completed(RequestEvent event) {
        first.completed(event);
        second.completed(event);
      }

      @Override
      public void dropped(int phaseIndex, long seq, long intendedNanos) {
        first.dropped(phaseIndex, seq, intendedNanos);
        second.dropped(phaseIndex, seq, intendedNanos);
      }

      @Override
      public void scheduleStarted(long startNanos) {
        first.scheduleStarted(startNanos);
        second.scheduleStarted(startNanos);
      }

      @Override
      public void flush() {
        first.flush();
        second.flush();
      }
    };
  }
}
