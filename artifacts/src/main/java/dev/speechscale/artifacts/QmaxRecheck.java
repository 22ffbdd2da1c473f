package dev.speechscale.artifacts;

import dev.speechscale.capacity.RungDrift;
import org.jspecify.annotations.Nullable;

/**
 * A ladder's reference rung measured again, late in its run, beside its first measurement. Recorded
 * under the qmax artifact's {@code drift.rechecks}; the re-measurement is not a step (it would
 * count the rung twice), so its raw figures live here. The changes and {@code beyond_tolerance} are
 * derived and recomputed on read.
 *
 * @param runIndex the run both measurements belong to
 * @param concurrency the reference rung's N
 * @param firstStepIndex the step that measured it first
 * @param stepIndex the re-measurement's own position in the run (the events log names its requests
 *     by it; steps skip it)
 * @param when when it was re-measured, in words ("at the end of run 1", "between bisection steps 1
 *     and 2 of run 1")
 * @param elapsedS seconds from the first measurement's window end to the re-measurement's
 * @param firstRps ok completions per second the first time
 * @param firstP95Ms p95 TTFAB the first time
 * @param remeasuredRps ok completions per second the second time
 * @param remeasuredP95Ms p95 TTFAB the second time, {@code null} when nothing completed
 * @param remeasuredOk successful completions in the re-measurement's window
 * @param remeasuredUsable whether the re-measurement itself passed the rung checks
 * @param remeasuredUnusableReason why not
 * @param remeasuredTtfabHistogram its TTFAB histogram (microseconds, encoded as the steps' are)
 * @param throughputChangePct the throughput change in percent of the first (derived)
 * @param p95ChangePct the p95 change in percent of the first (derived)
 * @param beyondTolerance either change exceeds its tolerance (derived)
 */
public record QmaxRecheck(
    int runIndex,
    int concurrency,
    int firstStepIndex,
    int stepIndex,
    String when,
    double elapsedS,
    double firstRps,
    double firstP95Ms,
    double remeasuredRps,
    @Nullable Double remeasuredP95Ms,
    @Nullable Long remeasuredOk,
    @Nullable Boolean remeasuredUsable,
    @Nullable String remeasuredUnusableReason,
    @Nullable String remeasuredTtfabHistogram,
    @Nullable Double throughputChangePct,
    @Nullable Double p95ChangePct,
    @Nullable Boolean beyondTolerance) {

  /** The comparison under these tolerances (percent). */
  public RungDrift toRungDrift(double throughputTolerancePct, double p95TolerancePct) {
    return new RungDrift(
        concurrency,
        when,
        elapsedS,
        firstRps,
        remeasuredRps,
        firstP95Ms,
        remeasuredP95Ms,
        throughputTolerancePct,
        p95TolerancePct);
  }

  /** This recheck with its changes and verdict recomputed under these tolerances. */
  QmaxRecheck withDerived(double throughputTolerancePct, double p95TolerancePct) {
    RungDrift d = toRungDrift(throughputTolerancePct, p95TolerancePct);
    return new QmaxRecheck(
        runIndex,
        concurrency,
        firstStepIndex,
        stepIndex,
        when,
        elapsedS,
        firstRps,
        firstP95Ms,
        remeasuredRps,
        remeasuredP95Ms,
        remeasuredOk,
        remeasuredUsable,
        remeasuredUnusableReason,
        remeasuredTtfabHistogram,
        d.throughputChangePct(),
        d.p95ChangePct(),
        d.beyond());
  }
}
