package dev.speechscale.report;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxInterval;
import dev.speechscale.capacity.FleetCost;
import dev.speechscale.capacity.Plan;
import dev.speechscale.capacity.ScaleOutTime;
import dev.speechscale.capacity.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The human form of a plan: inputs grouped as measured / chosen / derived, findings worst first,
 * the deployable endpoint configuration and the first-chunk latency alarm.
 */
public final class PlanReport {
  private static final int WIDTH = 100;

  private PlanReport() {}

  /**
   * The plan in words; {@code interval} (the qmax artifact's Q_max range from its rungs' p95
   * intervals, {@code null} when it recorded no rung checks) is printed under Q_max.
   */
  public static String render(
      PlanArtifact a, Plan p, ScaleOutTime t, Scenario s, @Nullable QmaxInterval interval) {
    StringBuilder o = new StringBuilder();
    o.append(
        f(
            "plan for %s (endpoint %s, %s) -- verdict: %s%n%n",
            a.model(), a.endpoint(), a.slug(), a.verdict().label()));
    measured(o, a.inputs().measured(), p, t, interval);
    chosen(o, s);
    derived(o, a.inputs().measured(), p, s);
    cost(o, a.cost());
    findings(o, a.findings());
    o.append("\nendpoint configuration (merge into your endpoint config file)\n");
    o.append(a.configBlock());
    o.append("\n");
    if (p.firstChunkAlarmMs() != null) {
      wrap(
          o,
          "first-chunk latency alarm: ",
          f(
              "FirstChunkLatency p95 > %.1f ms (p95 TTFAB at the lowest usable rung). Not the %.0f ms"
                  + " SLO: it watches service time on an instance already serving, where a request has"
                  + " spent none of its queue allowance.",
              p.firstChunkAlarmMs(), s.sloMs()));
    }
    return o.toString();
  }

  /** The measured inputs: Q_max and its range, service time, throughput, ratio, T, sources. */
  private static void measured(
      StringBuilder o,
      PlanArtifact.Measured m,
      Plan p,
      ScaleOutTime t,
      @Nullable QmaxInterval interval) {
    o.append("measured\n");
    row(
        o,
        "Q_max",
        f(
            "%d concurrent (%s; per run %s)",
            p.qMax(),
            p.qMaxBracketed()
                ? (p.qMaxRefined() ? "bracketed, refined to +/-1" : "bracketed")
                : "NOT bracketed: a lower bound",
            m.qMaxPerRun()));
    if (interval != null) {
      row(o, "Q_max range", range(interval, p.qMax()));
    }
    row(
        o,
        "S_mean / S_p95",
        f("%.1f ms / %.1f ms (uncontended, full response)", 1000 * m.sMeanS(), 1000 * m.sP95S()));
    if (p.throughputAtCScaleMaxPerSecond() != null) {
      row(
          o,
          "throughput",
          f("%.2f req/s per instance at C_scale_max", p.throughputAtCScaleMaxPerSecond()));
    }
    row(
        o,
        "units ratio",
        p.ratioMax() == null || p.ratioAverage() == null
            ? "not measured (thresholds suppressed)"
            : f(
                "Maximum %.3f (rung %d), Average %.3f (rung %d)",
                p.ratioMax().ratio(),
                p.ratioMax().atConcurrency(),
                p.ratioAverage().ratio(),
                p.ratioAverage().atConcurrency()));
    row(
        o,
        "T",
        t.measured()
            ? f(
                "%.1f s measured + %.1f s policy lag bound = %.1f s",
                t.measuredSeconds(), t.policyLagBoundSeconds(), t.plannedSeconds())
            : f("%.1f s ASSUMED (--assume-t-total), not measured", t.plannedSeconds()));
    row(
        o,
        "sources",
        m.qmaxSource().file() + (m.ttotalSource() == null ? "" : ", " + m.ttotalSource().file()));
  }

  /** The Q_max range line: the interval's ends, and which Q_max the plan sizes with. */
  private static String range(QmaxInterval interval, int qMax) {
    return f(
        "%d-%s from each rung's 95%% p95 interval%s",
        interval.low(),
        interval.high() == null ? "?" : interval.high().toString(),
        interval.high() == null
            ? " (no rung surely breaches the SLO: no upper end)"
            : interval.low().equals(interval.high()) ? "" : "; the plan sizes with " + qMax);
  }

  /** The scenario the operator chose. */
  private static void chosen(StringBuilder o, Scenario s) {
    o.append("chosen\n");
    row(o, "SLO", f("%.0f ms p95 TTFAB, queueing included", s.sloMs()));
    row(o, "surge ratio k", f("%.2f", s.surgeRatio()));
    row(
        o,
        "peak / trough",
        s.peak().describe() + " / " + (s.trough() == null ? "(none)" : s.trough().describe()));
    row(o, "min floor", Integer.toString(s.minFloor()));
    row(o, "shed target", f("%.0f%%", 100 * s.shedTarget()));
  }

  /** The derived figures: thresholds, the scaling target, N_safe, W_max, cooldowns, the fleet. */
  private static void derived(StringBuilder o, PlanArtifact.Measured m, Plan p, Scenario s) {
    o.append("derived\n");
    double h = s.surgeRatio() - 1;
    row(o, "C_scale_max", f("%.2f = (1 - %.2f) x %d", p.cScaleMax(), h, p.qMax()));
    row(o, "C_scale_min", f("%.2f = (1 - 2 x %.2f) x %d", p.cScaleMin(), h, p.qMax()));
    row(
        o,
        "scaling target",
        p.scalingTargetValue() == null
            ? "not emitted"
            : f("%.3f (deployed metric units)", p.scalingTargetValue()));
    row(
        o,
        "scale-in at",
        p.scaleInThreshold() == null
            ? "not emitted"
            : f("%.3f (deployed metric units)", p.scaleInThreshold()));
    row(o, "N_safe", p.minSafeInstances() == null ? "none" : p.minSafeInstances().toString());
    row(
        o,
        "W_max",
        f("%.3f s = SLO %.3f s - S_p95 %.3f s", p.wMaxSeconds(), s.sloMs() / 1000, m.sP95S()));
    row(
        o,
        "cooldowns",
        f("%d s out, %d s in", p.scaleOutCooldownSeconds(), p.scaleInCooldownSeconds()));
    row(o, "queue_max_depth", Integer.toString(p.queueMaxDepth()));
    fleet(o, p);
  }

  /** The fleet's size, its utilisation and the surge's shed probability. */
  private static void fleet(StringBuilder o, Plan p) {
    row(
        o,
        "fleet",
        f(
            "%d .. %d instances%s",
            p.minInstances(),
            p.maxInstances(),
            p.naiveMaxInstances() == null
                ? ""
                : f(" (the published sizing would say %d)", p.naiveMaxInstances())));
    row(
        o,
        "utilisation",
        f(
            "%.1f%% M/M/1, %.1f%% M/G/1 (service CV %.2f) at C_scale_max",
            100 * p.utilizationMm1(), 100 * p.utilizationMg1(), p.serviceCv()));
    row(
        o,
        "surge shed P",
        p.shedProbability() == null
            ? "not simulated"
            : f(
                "%.1f%% (recommended_c_scale_max %s)",
                100 * p.shedProbability(),
                p.recommendedCScaleMax() == null ? "none" : f("%.2f", p.recommendedCScaleMax())));
  }

  /** The fleet cost at trough and peak, when the plan priced it. */
  private static void cost(StringBuilder o, @Nullable FleetCost c) {
    if (c == null) {
      return;
    }
    o.append("cost\n");
    row(o, "at trough", c.describeTrough());
    row(o, "at peak", c.describePeak());
    for (String omitted : c.omitted()) {
      wrap(o, f("  %-16s ", "not shown"), omitted);
    }
  }

  /** The findings, worst first, each with its recommendation. */
  private static void findings(StringBuilder o, List<PlanArtifact.FindingEntry> findings) {
    o.append("\nfindings (worst first)\n");
    for (PlanArtifact.FindingEntry e : findings) {
      String head = f("  %-10s %-20s ", e.verdict().label().toUpperCase(Locale.ROOT), e.name());
      wrap(o, head, e.detail());
      if (e.recommendation() != null) {
        wrap(o, " ".repeat(head.length()) + "-> ", e.recommendation());
      }
    }
  }

  private static void row(StringBuilder o, String name, String value) {
    o.append(f("  %-16s %s%n", name, value));
  }

  /** Wraps {@code text} to the report width, the first line after {@code head}. */
  private static void wrap(StringBuilder o, String head, String text) {
    String indent = " ".repeat(head.length());
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder(head);
    for (String word : text.split(" ")) {
      if (line.length() + word.length() + 1 > WIDTH && line.length() > head.length()) {
        lines.add(line.toString().stripTrailing());
        line = new StringBuilder(indent);
      }
      line.append(word).append(' ');
    }
    lines.add(line.toString().stripTrailing());
    lines.forEach(l -> o.append(l).append('\n'));
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args).replace("\r\n", "\n");
  }
}
