package dev.speechscale.loadgen;

import org.jspecify.annotations.Nullable;

/** Measures one rung; the ladder's seam between its decisions and the load it sends. */
interface RungMeasurer extends AutoCloseable {
  /**
   * Runs and judges one rung.
   *
   * @return the report, or {@code null} when {@link #stop()} cut the rung short
   */
  @Nullable RungReport measure(
      LadderSpec spec, int runIndex, int stepIndex, int concurrency, RungReport.Phase phase);

  /**
   * Sends {@code concurrency} workers' load for {@code hold} and keeps nothing of it: no report, no
   * request events. Warms the server (and this client) before the first rung.
   *
   * @return false when {@link #stop()} cut it short
   */
  boolean warmUp(int concurrency, java.time.Duration hold);

  /** Ends the current rung (or warm-up) early; later rungs are not run. */
  void stop();

  @Override
  void close();
}
