package dev.speechscale.loadgen;

import java.time.Duration;

/**
 * Progress of a ladder, for people (the CLI prints it on stderr). Called on the ladder's thread,
 * except {@link #note} about a failing instance-count probe, which comes from the probe's thread:
 * implementations must be thread-safe.
 */
public interface LadderListener {
  LadderListener NONE = new LadderListener() {};

  /** A rung is about to start. */
  default void rungStarted(Progress progress) {}

  /** A rung was measured and judged. */
  default void rungFinished(Progress progress, RungReport report) {}

  /** Something the user should know: a run truncated, bisection skipped, a probe failing. */
  default void note(String message) {}

  /**
   * Where the ladder is.
   *
   * @param runIndex the run (0-based)
   * @param runs how many runs
   * @param stepIndex the rung's position in its run
   * @param concurrency the rung's N
   * @param phase coarse, bisection or a drift re-check
   * @param rungsDone rungs measured so far, all runs
   * @param rungsPlanned rungs expected in all, including predicted bisection rungs
   * @param elapsed wall time since the ladder started
   * @param eta estimated time to the end: remaining rungs × mean rung time so far (or the hold,
   *     before any rung ended)
   */
  record Progress(
      int runIndex,
      int runs,
      int stepIndex,
      int concurrency,
      RungReport.Phase phase,
      int rungsDone,
      int rungsPlanned,
      Duration elapsed,
      Duration eta) {}
}
