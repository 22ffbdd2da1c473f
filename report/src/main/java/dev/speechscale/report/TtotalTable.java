package dev.speechscale.report;

import dev.speechscale.artifacts.TtotalArtifact;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.stream.Collectors;

/** The text {@code tts-bench ttotal} prints: T_total, each stage's share, the runs' spread. */
public final class TtotalTable {
  private TtotalTable() {}

  /** T_total, its stages and, over several runs, their spread. */
  public static void print(TtotalArtifact t, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "T_total %.1f s measured + %.1f s policy lag bound = %.1f s%n",
        t.tTotalS(),
        t.policyLagBoundS(),
        t.tTotalWithPolicyBoundS());
    for (TtotalArtifact.StageDuration d : t.durations()) {
      out.printf(
          Locale.ROOT,
          "  %-17s -> %-17s %8.3f s  %5.1f%%%s%n",
          d.from(),
          d.to(),
          d.seconds(),
          100 * d.share(),
          Boolean.TRUE.equals(d.bounded()) ? "  (bounded)" : "");
    }
    if (!t.missingStages().isEmpty()) {
      out.println("  not observed: " + String.join(", ", t.missingStages()));
    }
    if (t.runs() != null) {
      out.printf(
          Locale.ROOT,
          "%d scale-outs timed; the stages above are the slowest (run_index %d). T_total per run: %s%n",
          t.runs().count(),
          t.runs().topLevelRun(),
          t.runs().runs().stream()
              .map(r -> String.format(Locale.ROOT, "%.1f s", r.tTotalS()))
              .collect(Collectors.joining(", ")));
      out.printf(
          Locale.ROOT,
          "  min %.1f s, median %.1f s, p90 %.1f s, max %.1f s%n",
          t.runs().tTotalMinS(),
          t.runs().tTotalMedianS(),
          t.runs().tTotalP90S(),
          t.runs().tTotalMaxS());
    } else {
      out.println("1 scale-out timed (--runs N times more and records the spread)");
    }
    if (t.newInstance() != null) {
      out.println(t.newInstance().summary());
    }
  }
}
