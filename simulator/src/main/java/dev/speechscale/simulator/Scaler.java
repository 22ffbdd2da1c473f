package dev.speechscale.simulator;

/** A policy's decision procedure, evaluated once per simulated second. */
interface Scaler {
  /**
   * The desired capacity after evaluating at {@code nowMs}; {@code desired} when nothing happens.
   */
  Step evaluate(long nowMs, MetricSamples samples, int desired, int inService);

  /**
   * One evaluation's outcome.
   *
   * @param desired the new desired capacity
   * @param cause why it changed (empty when it did not)
   */
  record Step(int desired, String cause) {}
}
