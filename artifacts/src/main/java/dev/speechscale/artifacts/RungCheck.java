package dev.speechscale.artifacts;

import org.jspecify.annotations.Nullable;

/**
 * How far one qmax rung can be trusted: whether its window was stable, how sure its p95 is, and
 * whether the machine or the load generator, not the endpoint, may have limited it. Recorded per
 * rung under the qmax artifact's {@code rung_checks} (additive; older artifacts carry none).
 *
 * <p>Only the run, step and N are required (the schema's {@code required}): every other figure is
 * {@code null} when the rung could not say it or the file does not carry it.
 *
 * @param runIndex the rung's run
 * @param stepIndex the rung's position in its run
 * @param concurrency the rung's N
 * @param samples successful requests completed in the window
 * @param firstHalfRps ok completions per second in the first half of the window
 * @param secondHalfRps ... in the second half
 * @param firstHalfP95Ms p95 TTFAB of the requests completed in the first half
 * @param secondHalfP95Ms ... in the second half
 * @param stable both halves agree: throughput within {@link #THROUGHPUT_TOLERANCE} and p95 within
 *     {@link #P95_TOLERANCE} of their mean
 * @param p95Ms p95 TTFAB of the window's samples (nearest rank)
 * @param p95CiLowMs the lower end of the 95 % order-statistic interval for the p95
 * @param p95CiHighMs the upper end; {@code null} when too few samples to bound it
 * @param stealFraction CPU steal as a share of the machine's CPU time during the rung
 * @param machineBusyCpus CPUs' worth of non-idle time on the whole machine during the rung
 * @param loadGeneratorCpus CPUs' worth of the load generator's own process
 * @param instanceLimitCpus the instance's enforced CPU limit, or {@code null} when unknown
 * @param otherCpus busy CPUs not explained by the load generator and the instance's limit
 * @param machineBusy {@code otherCpus} over {@link #BUSY_OTHER_CPUS}, or steal over {@link
 *     #BUSY_STEAL}: other work competed with the measurement
 * @param generatorBound the load generator used over {@link #GENERATOR_BOUND_SHARE} of the
 *     machine's CPUs
 * @param finding what limited the rung besides the endpoint, or {@code null} when nothing did
 */
public record RungCheck(
    int runIndex,
    int stepIndex,
    int concurrency,
    @Nullable Long samples,
    @Nullable Double firstHalfRps,
    @Nullable Double secondHalfRps,
    @Nullable Double firstHalfP95Ms,
    @Nullable Double secondHalfP95Ms,
    @Nullable Boolean stable,
    @Nullable Double p95Ms,
    @Nullable Double p95CiLowMs,
    @Nullable Double p95CiHighMs,
    @Nullable Double stealFraction,
    @Nullable Double machineBusyCpus,
    @Nullable Double loadGeneratorCpus,
    @Nullable Double instanceLimitCpus,
    @Nullable Double otherCpus,
    @Nullable Boolean machineBusy,
    @Nullable Boolean generatorBound,
    @Nullable String finding) {

  /** Halves' throughput may differ by this share of their mean. */
  public static final double THROUGHPUT_TOLERANCE = 0.15;

  /** Halves' p95 may differ by this share of their mean. */
  public static final double P95_TOLERANCE = 0.25;

  /** Busy CPUs beyond the generator and the instance's limit that make the machine busy. */
  public static final double BUSY_OTHER_CPUS = 0.5;

  /** Steal share of CPU time that makes the machine busy. */
  public static final double BUSY_STEAL = 0.05;

  /** Share of the machine's CPUs the load generator may use before it may be the limit. */
  public static final double GENERATOR_BOUND_SHARE = 0.5;

  /** Whether nothing but the endpoint limited the rung and its window was stable. */
  public boolean trustworthy() {
    return !Boolean.FALSE.equals(stable)
        && !Boolean.TRUE.equals(machineBusy)
        && !Boolean.TRUE.equals(generatorBound);
  }
}
