package dev.speechscale.cli;

import dev.speechscale.loadgen.BisectionAllowance;
import dev.speechscale.loadgen.DryRun;
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.platform.LadderDefaults;
import java.time.Duration;
import java.util.Locale;

/**
 * The text of {@code qmax --dry-run}: every rung with its hold, window and settle, the warm-up, the
 * bisection allowance, and the total, so a live run can be budgeted before anything is frozen.
 */
final class QmaxSchedule {
  private QmaxSchedule() {}

  static String render(
      String platform,
      LadderDefaults defaults,
      LadderSpec ladder,
      DryRun.Estimate e,
      BisectionAllowance allowance) {
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
    if (e.warmup() != null) {
      DryRun.Row w = e.warmup();
      o.append(
          f(
              "  warm-up (not measured): N=%d for %s, %d requests, %.1f s%n",
              w.concurrency(),
              seconds(ladder.warmup()),
              w.requests(),
              w.wallTime().toMillis() / 1000.0));
    } else {
      o.append("  warm-up: none\n");
    }
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
              secs(ladder.hold()),
              secs(ladder.window()),
              first ? 0.0 : secs(ladder.settle()),
              r.throughputPerSecond(),
              r.requests(),
              r.predictedTtfabMs(),
              r.wallTime().toMillis() / 1000.0));
      first = false;
    }
    if (allowance.rungsPerRun() == 0) {
      o.append(
          ladder.refine()
              ? "  bisection allowance: none (no gap wider than 1 between coarse rungs)\n"
              : "  bisection allowance: none (--no-refine)\n");
    } else {
      o.append(
          f(
              "  bisection allowance: up to %d rung(s) per run (the widest gap, %d..%d), at most"
                  + " +%s%n",
              allowance.rungsPerRun(),
              allowance.below(),
              allowance.above(),
              QmaxCommand.ProgressPrinterFormat.duration(allowance.wallTime())));
    }
    Duration coarse =
        e.rows().stream()
            .filter(r -> r.phase() == dev.speechscale.loadgen.RungReport.Phase.COARSE)
            .map(DryRun.Row::wallTime)
            .reduce(Duration.ZERO, Duration::plus)
            .plus(e.warmup() == null ? Duration.ZERO : e.warmup().wallTime());
    o.append(
        f(
            "total: %s wall clock as predicted (%d requests, predicted Q_max %d); coarse ladder and"
                + " warm-up %s, at most %s with the full bisection allowance%n",
            QmaxCommand.ProgressPrinterFormat.duration(e.wallClock()),
            e.requests(),
            e.predictedQmax(),
            QmaxCommand.ProgressPrinterFormat.duration(coarse),
            QmaxCommand.ProgressPrinterFormat.duration(coarse.plus(allowance.wallTime()))));
    o.append(f("  service assumed, not measured: %s%n", e.model()));
    return o.toString();
  }

  private static double secs(Duration d) {
    return d.toMillis() / 1000.0;
  }

  private static String seconds(Duration d) {
    return f("%.0f s", secs(d));
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
