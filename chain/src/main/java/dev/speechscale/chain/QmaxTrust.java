package dev.speechscale.chain;

import dev.speechscale.artifacts.IdleStartRung;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxDrift;
import dev.speechscale.artifacts.QmaxInterval;
import dev.speechscale.artifacts.QmaxRecheck;
import dev.speechscale.artifacts.QmaxRewarm;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.RungCheck;
import dev.speechscale.artifacts.RungStability;
import dev.speechscale.capacity.BracketDrift;
import dev.speechscale.capacity.RungDrift;
import java.util.ArrayList;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Locale;

/**
 * How far a ladder's Q_max can be trusted, and what its closed-loop rungs cannot measure, in lines
 * for people (the CLI and the report).
 */
public final class QmaxTrust {
  private QmaxTrust() {}

  /**
   * The rungs' stability windows (one line for all, then one per rung that never held steady), the
   * Q_max range from the rungs' p95 intervals, the drift check (the reference rung measured again
   * late in the ladder), then one line per rung that was unstable or limited by something other
   * than the endpoint, then the idle-start rung (what the closed-loop rungs cannot measure: an
   * instance below saturation); nothing for an artifact without stability windows, rung checks, a
   * drift check or an idle-start rung.
   */
  public static List<String> lines(QmaxArtifact a) {
    List<String> out = new ArrayList<>();
    out.addAll(stability(a));
    out.addAll(interval(a));
    out.addAll(drift(a));
    out.addAll(rungs(a));
    out.addAll(idleStart(a));
    return out;
  }

  /**
   * The open-loop rung below saturation in one line: its idle and queued starts and the factors the
   * simulator takes from it, or why there are none; nothing for an artifact without one.
   */
  static List<String> idleStart(QmaxArtifact a) {
    IdleStartRung r = a.idleStart();
    if (r == null) {
      return List.of();
    }
    return List.of(
        "idle-start rung (open loop below saturation, idle / queued starts; every closed-loop rung"
            + " measures queued starts only): "
            + r.summary());
  }

  /** The drift check in lines: each re-measurement's figures, beyond tolerance first said so. */
  static List<String> drift(QmaxArtifact a) {
    QmaxDrift d = a.drift();
    if (d == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (BracketDrift b :
        BracketDrift.of(a.ladder(), d.throughputTolerancePct()).stream()
            .filter(BracketDrift::beyond)
            .toList()) {
      out.add(
          "DRIFT: "
              + b.describe()
              + ": Q_max "
              + a.qMax()
              + " measured the machine as well as the endpoint, and the plan will warn"
              + " (measurement_trust)");
    }
    if (d.rechecks().isEmpty()) {
      out.add(
          "drift check: nothing was re-measured (no coarse rung met the SLO, or the ladder was"
              + " stopped first)");
      return out;
    }
    List<RungDrift> checks = d.rungDrifts();
    long beyond = checks.stream().filter(RungDrift::beyond).count();
    for (QmaxRecheck r : d.rechecks()) {
      if (d.superseded(r)) {
        out.add(
            "drift re-check superseded (the run was measured again): "
                + r.toRungDrift(d.throughputTolerancePct(), d.p95TolerancePct()).describe());
      }
    }
    for (RungDrift c : checks) {
      out.add((c.beyond() ? "DRIFT: " : "drift check ok: ") + c.describe());
    }
    for (QmaxRewarm w : d.rewarms()) {
      out.add(
          String.format(
              Locale.ROOT,
              "drift rewarm, run %d: %s (%.0f s extra of a %.0f s budget): %s",
              w.runIndex() + 1,
              w.outcome(),
              w.extraS(),
              w.budgetS(),
              w.reason()));
    }
    if (beyond > 0) {
      out.add(
          String.format(
              Locale.ROOT,
              "the ladder drifted (%d of %d re-measurements beyond tolerance): Q_max %d measured"
                  + " the machine as well as the endpoint, and the plan will warn"
                  + " (measurement_trust); re-run qmax on a quiet machine before trusting it",
              beyond,
              checks.size(),
              a.qMax()));
    }
    return out;
  }

  /**
   * The stability windows: how many each rung needed, and every rung held to its max hold without
   * its windows agreeing (unusable, so Q_max was decided without it).
   */
  static List<String> stability(QmaxArtifact a) {
    List<StepWith<RungStability>> held = StepWith.of(a, QmaxStep::stability);
    if (held.isEmpty()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    RungStability rule = held.getFirst().part();
    IntSummaryStatistics windows =
        held.stream().mapToInt(h -> h.part().windows().size()).summaryStatistics();
    out.add(
        String.format(
            Locale.ROOT,
            "stability windows: each rung held until %d windows in a row agreed within %s %%"
                + " (throughput and p95), at most %.0f s: %d–%d windows per rung",
            rule.windowsRequired(),
            percent(rule.stabilityPct()),
            rule.maxHoldS(),
            windows.getMin(),
            windows.getMax()));
    List<StepWith<RungStability>> unstable = held.stream().filter(h -> !h.part().stable()).toList();
    for (StepWith<RungStability> h : unstable) {
      QmaxStep s = h.step();
      RungStability r = h.part();
      out.add(
          String.format(
              Locale.ROOT,
              "UNSTABLE: N=%d (run %d, rung %d) held %.0f s, %d windows, no %d in a row within"
                  + " %s %%: throughput %s req/s, p95 %s ms; unusable, as a rung that did not"
                  + " settle",
              s.concurrency(),
              s.run() + 1,
              (s.stepIndex() == null ? 0 : s.stepIndex()) + 1,
              r.maxHoldS(),
              r.windows().size(),
              r.windowsRequired(),
              percent(r.stabilityPct()),
              join(r.windows().stream().map(w -> f("%.1f", w.achievedRps())).toList()),
              join(
                  r.windows().stream()
                      .map(w -> w.ttfabP95Ms() == null ? "n/a" : f("%.0f", w.ttfabP95Ms()))
                      .toList())));
    }
    if (!unstable.isEmpty()) {
      out.add(
          unstable.size()
              + " of "
              + held.size()
              + " rungs never held steady: Q_max "
              + a.qMax()
              + " was decided without them; re-run qmax on a quiet machine, or raise --max-hold");
    }
    return out;
  }

  private static String join(List<String> figures) {
    return String.join(", ", figures);
  }

  private static String percent(double pct) {
    return pct == Math.rint(pct) ? String.valueOf((long) pct) : f("%.1f", pct);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  private static List<String> interval(QmaxArtifact a) {
    List<String> out = new ArrayList<>();
    QmaxInterval i = a.qMaxInterval();
    if (i != null) {
      out.add(
          String.format(
              Locale.ROOT,
              "Q_max range %d–%s given each rung's 95%% p95 interval (a rung that was unstable or"
                  + " noisy anchors neither end)",
              i.low(),
              i.high() == null ? "? (no rung surely breaches the SLO)" : i.high().toString()));
    }
    return out;
  }

  private static List<String> rungs(QmaxArtifact a) {
    List<String> out = new ArrayList<>();
    if (a.rungChecks() == null) {
      return out;
    }
    int flagged = 0;
    for (RungCheck c : a.rungChecks()) {
      if (c.finding() != null) {
        flagged++;
        out.add("  " + rung(c) + ": " + c.finding());
      }
    }
    if (flagged > 0) {
      out.add(
          flagged
              + " of "
              + a.rungChecks().size()
              + " rungs measured more than the endpoint: re-run qmax on a quiet machine before"
              + " trusting Q_max "
              + a.qMax());
    }
    return out;
  }

  /** A rung as the trust lines name it: {@code N=4 (run 1, rung 3)}. */
  static String rung(RungCheck c) {
    return String.format(
        Locale.ROOT,
        "N=%d (run %d, rung %d)",
        c.concurrency(),
        c.runIndex() + 1,
        c.stepIndex() + 1);
  }
}
