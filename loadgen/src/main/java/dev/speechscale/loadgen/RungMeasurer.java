package dev.speechscale.loadgen;

/** Measures one rung; the ladder's seam between its decisions and the load it sends. */
interface RungMeasurer extends AutoCloseable {
  /**
   * Runs and judges one rung.
   *
   * @return the report, or {@code null} when {@link #stop()} cut the rung short
   */
  RungReport measure(
      LadderSpec spec, int runIndex, int stepIndex, int concurrency, RungReport.Phase phase);

  /** Ends the current rung early; later rungs are not run. */
  void stop();

  @Override
  void close();
}
