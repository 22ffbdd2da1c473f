package dev.speechscale.loadgen;

import dev.speechscale.artifacts.RungStability;
import dev.speechscale.platform.Invocation.Outcome;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Whether a rung's window can be trusted as a measurement of the endpoint at concurrency N, and if
 * not, the first reason why (checked in the order of the records below).
 *
 * <p>The thresholds are DESIGN §3's; {@link Failing} is an addition: percentiles over the survivors
 * of a server that fails more than 1% of requests describe the survivors, not the endpoint.
 */
public sealed interface RungVerdict {
  /** Client mean concurrency may fall at most this fraction short of N. */
  double CLIENT_SHORTFALL_LIMIT = 0.05;

  /** At most this fraction of completions may be rejections. */
  double REJECTION_LIMIT = 0.01;

  /** At most this fraction of completions may fail otherwise. */
  double FAILURE_LIMIT = 0.01;

  /** |TTFAB drift| may be at most this fraction of the window's p95 TTFAB. */
  double DRIFT_LIMIT = 0.25;

  /** The rung can be trusted. */
  record Usable() implements RungVerdict {}

  /** The instance count changed during the rung (N spread over a different fleet). */
  record CapacityChanged(List<Integer> instanceCounts) implements RungVerdict {
    public CapacityChanged {
      instanceCounts = List.copyOf(instanceCounts);
    }
  }

  /** No request ended inside the window, or none of those that did succeeded. */
  record NothingCompleted(long completed, long ok) implements RungVerdict {}

  /** A worker started a request before its previous one ended: a load-generator bug. */
  record WorkerOverlap(int overlaps, int concurrency) implements RungVerdict {}

  /** More than 1% of completions were refusals: something shed load. */
  record Saturated(long rejected, long completed) implements RungVerdict {}

  /** More than 1% of completions failed (server, client or transport errors). */
  record Failing(long failed, long completed, Map<Outcome, Long> outcomes) implements RungVerdict {
    public Failing {
      outcomes = Map.copyOf(outcomes);
    }
  }

  /** Client mean concurrency fell more than 5% short of N: the client was the limit. */
  record ClientBound(double concurrencyMean, int concurrency) implements RungVerdict {}

  /**
   * Held to its max hold without {@code required} consecutive windows agreeing: the rung measured
   * something that moved (the machine or the endpoint), not a steady state.
   *
   * @param measured windows measured
   * @param required consecutive windows that had to agree
   * @param percent within how many percent of their mean
   * @param maxHoldS the hold's bound, seconds
   * @param throughputSpreadPct the last {@code required} windows' throughput spread, or NaN
   * @param p95SpreadPct their p95 spread, or NaN
   */
  record Unstable(
      int measured,
      int required,
      double percent,
      double maxHoldS,
      double throughputSpreadPct,
      double p95SpreadPct)
      implements RungVerdict {}

  /** TTFAB moved by more than 25% of p95 across the window: not yet steady. */
  record NotSettled(double driftMs, double ttfabP95Ms) implements RungVerdict {}

  default boolean usable() {
    return this instanceof Usable;
  }

  /** Short machine-friendly name ({@code usable}, {@code client_bound}, ...). */
  default String name() {
    return switch (this) {
      case Usable _ -> "usable";
      case CapacityChanged _ -> "capacity_changed";
      case NothingCompleted _ -> "nothing_completed";
      case WorkerOverlap _ -> "worker_overlap";
      case Saturated _ -> "saturated";
      case Failing _ -> "failing";
      case ClientBound _ -> "client_bound";
      case Unstable _ -> "unstable";
      case NotSettled _ -> "not_settled";
    };
  }

  /** Why the rung is unusable, in words; {@code null} when usable. */
  default @Nullable String reason() {
    return switch (this) {
      case Usable _ -> null;
      case CapacityChanged c ->
          "capacity changed: instance count went "
              + c.instanceCounts()
              + " during the rung; N requests spread over another fleet is not a per-instance"
              + " measurement";
      case NothingCompleted n ->
          n.completed() == 0
              ? "nothing completed inside the measurement window; lengthen the window"
              : "none of the " + n.completed() + " requests that ended in the window succeeded";
      case WorkerOverlap w ->
          w.overlaps()
              + " request(s) started before their worker's previous one ended, so more than N="
              + w.concurrency()
              + " were outstanding (a load-generator bug)";
      case Saturated s ->
          String.format(
              Locale.ROOT,
              "saturated: %d of %d completions (%.1f%%) were rejections (more than %.0f%%);"
                  + " something shed load, check MAX_QUEUE_DEPTH and MAX_REQUEST_AGE_S",
              s.rejected(),
              s.completed(),
              100.0 * s.rejected() / s.completed(),
              100 * REJECTION_LIMIT);
      case Failing f ->
          String.format(
              Locale.ROOT,
              "failing: %d of %d completions (%.1f%%) failed %s (more than %.0f%%)",
              f.failed(),
              f.completed(),
              100.0 * f.failed() / f.completed(),
              f.outcomes(),
              100 * FAILURE_LIMIT);
      case ClientBound c ->
          String.format(
              Locale.ROOT,
              "client-bound: mean in-flight %.2f is %.1f%% short of N=%d (more than %.0f%%);"
                  + " the load generator, not the endpoint, set this rung's pace",
              c.concurrencyMean(),
              100 * (c.concurrency() - c.concurrencyMean()) / c.concurrency(),
              c.concurrency(),
              100 * CLIENT_SHORTFALL_LIMIT);
      case Unstable u ->
          String.format(
              Locale.ROOT,
              "unstable: held to the max hold (%.0f s), %d windows, and no %d in a row agreed"
                  + " within %s %% (the last %d: throughput spread %s, p95 spread %s); the rung"
                  + " measured something that moved, re-run on a quiet machine or raise"
                  + " --max-hold",
              u.maxHoldS(),
              u.measured(),
              u.required(),
              percent(u.percent()),
              u.required(),
              spread(u.throughputSpreadPct()),
              spread(u.p95SpreadPct()));
      case NotSettled n ->
          String.format(
              Locale.ROOT,
              "not settled: TTFAB drifted %.1f ms across the window (median of the last third"
                  + " minus the first), more than %.0f%% of p95 %.1f ms; lengthen the hold",
              n.driftMs(),
              100 * DRIFT_LIMIT,
              n.ttfabP95Ms());
    };
  }

  /**
   * Judges a window.
   *
   * @param stats the window
   * @param overlaps {@link WindowStats#workerOverlaps} over the whole rung
   * @param instanceCounts distinct instance counts seen during the rung, in order (empty when not
   *     watched)
   */
  static RungVerdict judge(WindowStats stats, int overlaps, List<Integer> instanceCounts) {
    return judge(stats, overlaps, instanceCounts, null);
  }

  /**
   * Judges a rung's counted windows; a rung held to its max hold without its windows agreeing is
   * {@link Unstable}, checked after the client-bound check and before the settle check (both ask
   * whether the rung was steady; the stability rule asks it over the whole hold).
   *
   * @param stability the rung's windows, or {@code null} when one window was measured
   */
  static RungVerdict judge(
      WindowStats stats,
      int overlaps,
      List<Integer> instanceCounts,
      @Nullable RungStability stability) {
    if (instanceCounts.size() > 1) {
      return new CapacityChanged(instanceCounts);
    }
    if (stats.completed() == 0) {
      return new NothingCompleted(0, 0);
    }
    if (overlaps > 0) {
      return new WorkerOverlap(overlaps, stats.concurrency());
    }
    if (stats.rejected() > REJECTION_LIMIT * stats.completed()) {
      return new Saturated(stats.rejected(), stats.completed());
    }
    if (stats.failed() > FAILURE_LIMIT * stats.completed()) {
      Map<Outcome, Long> failures =
          stats.outcomes().entrySet().stream()
              .filter(e -> e.getKey() != Outcome.OK && e.getKey() != Outcome.REJECTED)
              .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
      return new Failing(stats.failed(), stats.completed(), failures);
    }
    if (stats.ok() == 0) {
      return new NothingCompleted(stats.completed(), 0);
    }
    int n = stats.concurrency();
    if (n - stats.concurrencyMean() > CLIENT_SHORTFALL_LIMIT * n) {
      return new ClientBound(stats.concurrencyMean(), n);
    }
    if (stability != null && !stability.stable()) {
      return new Unstable(
          stability.windows().size(),
          stability.windowsRequired(),
          stability.stabilityPct(),
          stability.maxHoldS(),
          nan(stability.throughputSpreadPct()),
          nan(stability.p95SpreadPct()));
    }
    Double drift = stats.ttfabDriftMs();
    if (drift != null) {
      // a drift needs at least 3 ok requests, so the p95 exists
      double p95 = Objects.requireNonNull(stats.ttfabP95Ms(), "p95 of a window with a drift");
      if (Math.abs(drift) > DRIFT_LIMIT * p95) {
        return new NotSettled(drift, p95);
      }
    }
    return new Usable();
  }

  private static double nan(@Nullable Double v) {
    return v == null ? Double.NaN : v;
  }

  /** {@code 10} or {@code 12.5}. */
  private static String percent(double pct) {
    return pct == Math.rint(pct)
        ? String.valueOf((long) pct)
        : String.format(Locale.ROOT, "%.1f", pct);
  }

  /** {@code 12.3 %}, or {@code n/a} when a window completed nothing. */
  private static String spread(double pct) {
    return Double.isNaN(pct) ? "n/a" : String.format(Locale.ROOT, "%.1f %%", pct);
  }
}
