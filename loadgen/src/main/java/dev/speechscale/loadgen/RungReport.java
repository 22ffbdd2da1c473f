package dev.speechscale.loadgen;

import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.RungStability;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One measured rung: its window's statistics, its verdict, and what the platform said about it.
 *
 * @param runIndex the ladder run
 * @param stepIndex position within the run (coarse rungs first, then bisection rungs)
 * @param phase coarse, bisection, or a drift re-check
 * @param concurrency N
 * @param windowStart the measurement window's start, wall clock (for metric queries)
 * @param windowEnd its end
 * @param stats the window's statistics
 * @param overlaps worker self-overlaps over the whole rung (0 unless the driver is broken)
 * @param instanceCounts distinct instance counts seen during the rung, empty when not watched
 * @param server the server's concurrency over the window, or {@code null}
 * @param verdict usable, or the first reason not to trust the rung
 * @param wallTime the rung's wall-clock cost: hold, drain and settle
 * @param stability the consecutive windows it was held for until they agreed, or {@code null} when
 *     one window was measured
 */
public record RungReport(
    int runIndex,
    int stepIndex,
    Phase phase,
    int concurrency,
    Instant windowStart,
    Instant windowEnd,
    WindowStats stats,
    int overlaps,
    List<Integer> instanceCounts,
    LadderHooks.@Nullable ServerConcurrency server,
    RungVerdict verdict,
    Duration wallTime,
    @Nullable RungStability stability) {

  public RungReport {
    instanceCounts = List.copyOf(instanceCounts);
  }

  /** Where a rung came from. */
  public enum Phase {
    COARSE,
    BISECT,
    /** The reference rung measured again for the drift check; not a step of the ladder. */
    RECHECK
  }

  public boolean usable() {
    return verdict.usable();
  }

  public boolean saturated() {
    return verdict instanceof RungVerdict.Saturated;
  }

  /** Usable and p95 TTFAB within the SLO. */
  public boolean meetsSlo(double sloMs) {
    return usable() && usableP95Ms() <= sloMs;
  }

  /** Usable and p95 TTFAB over the SLO. */
  public boolean breachesSlo(double sloMs) {
    return usable() && usableP95Ms() > sloMs;
  }

  /** Which side of the SLO a rung lies on, as the bisection reads it. */
  public enum SloSide {
    MEETS,
    BREACHES,
    /** Unusable, or unsettled with windows on both sides of the SLO. */
    UNKNOWN
  }

  /**
   * The rung's side of the SLO for the bisection: a usable rung's; for a rung held to its max hold
   * without its windows agreeing ({@link RungVerdict.Unstable}), the side every one of its windows
   * lay on (their figures moved, their verdict did not), else {@link SloSide#UNKNOWN}. Such a rung
   * still stays out of Q_max: it only keeps one unsettled rung from stopping the bisection.
   */
  public SloSide sloSideForBisection(double sloMs) {
    if (usable()) {
      return meetsSlo(sloMs) ? SloSide.MEETS : SloSide.BREACHES;
    }
    if (!(verdict instanceof RungVerdict.Unstable) || stability == null) {
      return SloSide.UNKNOWN;
    }
    List<RungStability.Window> windows = stability.windows();
    if (windows.isEmpty() || windows.stream().anyMatch(w -> w.ttfabP95Ms() == null)) {
      return SloSide.UNKNOWN;
    }
    if (windows.stream().allMatch(w -> w.ttfabP95Ms() != null && w.ttfabP95Ms() <= sloMs)) {
      return SloSide.MEETS;
    }
    if (windows.stream().allMatch(w -> w.ttfabP95Ms() != null && w.ttfabP95Ms() > sloMs)) {
      return SloSide.BREACHES;
    }
    return SloSide.UNKNOWN;
  }

  /** A usable rung's p95 TTFAB, which exists: {@link RungVerdict#judge} needs ok requests. */
  private double usableP95Ms() {
    return Objects.requireNonNull(stats.ttfabP95Ms(), "p95 TTFAB of a usable rung");
  }

  /**
   * The artifact's view of this rung, with {@code meets_slo} against {@code sloMs}. A rung without
   * ok requests has no percentiles, histograms or drift, an unwatched server no concurrency, and a
   * usable rung no reason: those are left out.
   */
  public QmaxStep toStep(double sloMs) {
    QmaxStep step =
        QmaxStep.of(
            new QmaxStep.Position(runIndex, stepIndex, concurrency),
            QmaxStep.Counts.of(stats.completed(), stats.ok(), stats.rejected(), stats.chars()),
            new QmaxStep.Throughput(stats.achievedRps(), stats.concurrencyMean()),
            new QmaxStep.ClientLatency(
                stats.ttfabP50Ms(),
                stats.ttfabP95Ms(),
                stats.ttfabP99Ms(),
                stats.latencyMeanMs(),
                stats.latencyP95Ms()),
            new QmaxStep.Verdict(usable(), verdict.reason()));
    if (server != null) {
      step =
          step.withServerConcurrency(new QmaxStep.ServerConcurrency(server.peak(), server.mean()));
    }
    if (stats.ok() > 0) {
      step =
          step.withHistograms(
              QmaxStep.LatencyHistograms.of(stats.ttfabHistogram(), stats.latencyHistogram()));
    }
    return step.withTtfabDriftMs(stats.ttfabDriftMs())
        .withBreakdown(stats.breakdown())
        .withStability(stability)
        .withMeetsSlo(sloMs);
  }

  /** This report with the server's concurrency attached (a later metric join). */
  public RungReport withServer(LadderHooks.ServerConcurrency server) {
    return new RungReport(
        runIndex,
        stepIndex,
        phase,
        concurrency,
        windowStart,
        windowEnd,
        stats,
        overlaps,
        instanceCounts,
        server,
        verdict,
        wallTime,
        stability);
  }
}
