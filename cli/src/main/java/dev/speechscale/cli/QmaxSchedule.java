package dev.speechscale.cli;

import dev.speechscale.loadgen.BisectionAllowance;
import dev.speechscale.loadgen.DriftRecheck;
import dev.speechscale.loadgen.DryRun;
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.loadgen.RungReport;
import dev.speechscale.loadgen.StabilityRule;
import dev.speechscale.platform.LadderDefaults;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;

/**
 * The text of {@code qmax --dry-run}: every rung with its hold, window and settle, the stability
 * windows, the warm-up, the drift re-checks, the bisection allowance (re-checks included), and the
 * total — as predicted, and in the worst case with every rung held to its max hold — so a live run
 * can be budgeted before anything is frozen.
 */
final class QmaxSchedule {
  private QmaxSchedule() {}

  static String render(
      String platform,
      LadderDefaults defaults,
      LadderSpec ladder,
      DryRun.Estimate e,
      BisectionAllowance allowance,
      Duration idleRung) {
    StringBuilder o = new StringBuilder();
    o.append(
        f(
            "dry run (no endpoint calls): qmax on %s, %d coarse rung(s) x %d run(s) at SLO %.0f ms"
                + " (platform defaults: %s)%n",
            platform, ladder.rungs().size(), ladder.runs(), ladder.sloMs(), defaults.source()));
    o.append(
        f(
            "  hold %s per rung, the trailing %s measured, %s settle between rungs%n",
            seconds(ladder.hold()), seconds(ladder.window()), seconds(ladder.settle())));
    o.append(stability(ladder));
    o.append(warmup(ladder, e));
    o.append(rows(ladder, e));
    o.append(drift(ladder, e));
    o.append(bisection(ladder, allowance));
    o.append(idleRung(idleRung));
    o.append(totals(ladder, e, allowance, idleRung));
    o.append(f("  service assumed, not measured: %s%n", e.model()));
    return o.toString();
  }

  /** The warm-up's line: its concurrency, length and requests, or that there is none. */
  private static String warmup(LadderSpec ladder, DryRun.Estimate e) {
    DryRun.Row w = e.warmup();
    if (w == null) {
      return "  warm-up: none\n";
    }
    return f(
        "  warm-up (not measured): N=%d for %s, %d requests, %.1f s%n",
        w.concurrency(), seconds(ladder.warmup()), w.requests(), w.wallTime().toMillis() / 1000.0);
  }

  /** The table of rungs: one row per run, step and phase, as predicted. */
  private static String rows(LadderSpec ladder, DryRun.Estimate e) {
    StringBuilder o = new StringBuilder();
    o.append(
        f(
            "  %-4s %-4s %-7s %-5s %7s %8s %8s %9s %9s %10s %9s%n",
            "run",
            "step",
            "phase",
            "N",
            "hold s",
            "window s",
            "settle s",
            "req/s",
            "requests",
            "TTFAB ms",
            "wall s"));
    boolean first = true;
    for (DryRun.Row r : e.rows()) {
      o.append(
          f(
              "  %-4d %-4d %-7s %-5d %7.0f %8.0f %8.0f %9.1f %9d %10.1f %9.1f%n",
              r.runIndex(),
              r.stepIndex(),
              r.phase().name().toLowerCase(Locale.ROOT),
              r.concurrency(),
              secs(ladder.minimumHold()),
              secs(ladder.window()),
              first ? 0.0 : secs(ladder.settle()),
              r.throughputPerSecond(),
              r.requests(),
              r.predictedTtfabMs(),
              r.wallTime().toMillis() / 1000.0));
      first = false;
    }
    return o.toString();
  }

  /** The bisection allowance's line: how many rungs (and drift re-checks) it may add, and when. */
  private static String bisection(LadderSpec ladder, BisectionAllowance allowance) {
    if (allowance.rungsPerRun() == 0) {
      return (ladder.refine()
              ? "  bisection allowance: none (no gap wider than 1 between coarse rungs)"
              : "  bisection allowance: none (--no-refine)")
          + (allowance.rechecksPerRun() == 0
              ? "\n"
              : f(
                  "; %d drift re-check(s) per run, at most +%s%n",
                  allowance.rechecksPerRun(), duration(allowance.wallTime())));
    }
    String rechecks =
        allowance.rechecksPerRun() == 0
            ? ""
            : f(" and %d drift re-check(s)", allowance.rechecksPerRun());
    return f(
        "  bisection allowance: up to %d rung(s) per run (the widest gap, %d..%d)%s, at"
            + " most +%s%n",
        allowance.rungsPerRun(),
        allowance.below(),
        allowance.above(),
        rechecks,
        duration(allowance.wallTime()));
  }

  /** The idle-start rung's line: how long it runs after the ladder, or that it does not. */
  private static String idleRung(Duration idle) {
    if (idle.isZero()) {
      return "  idle-start rung: none (--no-idle-rung)\n";
    }
    return f(
        "  idle-start rung (after the ladder, not part of Q_max): open-loop Poisson at 0.45 x the"
            + " ladder's best throughput for %.1f s%n",
        secs(idle));
  }

  /**
   * The totals: as predicted, with the full bisection allowance, and the worst case, each with the
   * idle-start rung.
   */
  private static String totals(
      LadderSpec ladder, DryRun.Estimate e, BisectionAllowance allowance, Duration idle) {
    Duration coarse = coarse(e, DryRun.Row::wallTime).plus(idle);
    String o =
        f(
            "total: %s wall clock as predicted (%d requests, predicted Q_max %d); %s %s, at most"
                + " %s with the full bisection allowance%n",
            duration(e.wallClock().plus(idle)),
            e.requests(),
            e.predictedQmax(),
            idle.isZero()
                ? "coarse ladder and warm-up"
                : "coarse ladder, warm-up and idle-start rung",
            duration(coarse),
            duration(coarse.plus(allowance.wallTime())));
    if (!ladder.stability().extendsHold()) {
      return o;
    }
    Duration worstCoarse = coarse(e, DryRun.Row::worstWallTime).plus(idle);
    return o
        + f(
            "worst case, every rung held to the max hold (%s): %s, at most %s with the full"
                + " bisection allowance%n",
            seconds(ladder.maximumHold()),
            duration(e.worstCaseWallClock().plus(idle)),
            duration(worstCoarse.plus(allowance.wallTime())));
  }

  /** The coarse rungs' wall time (each rung's {@code time}) plus the warm-up's. */
  private static Duration coarse(DryRun.Estimate e, Function<DryRun.Row, Duration> time) {
    return e.rows().stream()
        .filter(r -> r.phase() == RungReport.Phase.COARSE)
        .map(time)
        .reduce(Duration.ZERO, Duration::plus)
        .plus(e.warmup() == null ? Duration.ZERO : e.warmup().wallTime());
  }

  /** The stability rule's line: how a rung ends, and what it costs. */
  private static String stability(LadderSpec ladder) {
    StabilityRule r = ladder.stability();
    if (!r.extendsHold()) {
      return "  stability windows: off (--stability-windows 1): each rung is its hold's trailing"
          + " window, measured once\n";
    }
    return f(
        "  stability windows: from the hold's trailing %s on, consecutive %s windows until %d in a"
            + " row agree (throughput and p95 TTFAB each within %s %% of their mean); a rung is"
            + " held %s as predicted (its first %d windows agree) and at most %s (--max-hold),"
            + " unstable and unusable if none agree by then%n",
        seconds(ladder.window()),
        seconds(ladder.window()),
        r.windows(),
        percent(r.percent()),
        seconds(ladder.minimumHold()),
        r.windows(),
        seconds(ladder.maximumHold()));
  }

  /** The drift re-check's line: which rung, when, what it adds, and the tolerances. */
  private static String drift(LadderSpec ladder, DryRun.Estimate e) {
    DriftRecheck d = ladder.drift();
    if (!d.enabled()) {
      return "  drift re-check: off (--drift-check off): nothing says whether the machine drifted"
          + " during the ladder\n";
    }
    Duration added =
        e.rows().stream()
            .filter(r -> r.phase() == RungReport.Phase.RECHECK)
            .map(DryRun.Row::wallTime)
            .reduce(Duration.ZERO, Duration::plus);
    long count = e.rows().stream().filter(r -> r.phase() == RungReport.Phase.RECHECK).count();
    return f(
        "  drift re-check: each run's highest coarse rung that meets the SLO, measured again at the"
            + " end of the run%s and compared with its first measurement (beyond %s %% throughput"
            + " or %s %% p95 the artifact carries a drift finding); as predicted %d re-check(s),"
            + " +%s%n",
        d.mode() == DriftRecheck.Mode.BISECTION ? " and between bisection steps" : "",
        percent(d.throughputTolerancePct()),
        percent(d.p95TolerancePct()),
        count,
        duration(added));
  }

  private static String percent(double pct) {
    return pct == Math.rint(pct) ? String.valueOf((long) pct) : f("%.1f", pct);
  }

  private static double secs(Duration d) {
    return d.toMillis() / 1000.0;
  }

  private static String seconds(Duration d) {
    return f("%.0f s", secs(d));
  }

  private static String duration(Duration d) {
    return Durations.wallClock(d);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
