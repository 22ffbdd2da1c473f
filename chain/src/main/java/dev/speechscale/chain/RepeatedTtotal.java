package dev.speechscale.chain;

import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.TtotalRuns;
import dev.speechscale.platform.Platform;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code ttotal --runs N}: times the scale-out N times, each a complete {@link TtotalRun} (its own
 * freeze, probe and restore to one instance, so every run starts from the same capacity), and
 * combines them into one artifact carrying every run and the spread of T_total. One run is exactly
 * {@link TtotalRun#run}.
 */
public final class RepeatedTtotal {
  private RepeatedTtotal() {}

  /**
   * Times {@code runs} scale-outs and returns the combined artifact (derived values recomputed).
   */
  public static TtotalArtifact run(
      Platform platform,
      TtotalRun.Options o,
      int runs,
      ChainClock clocks,
      Consumer<String> progress) {
    if (runs < 1) {
      throw new ChainException("--runs is " + runs + "; time at least one scale-out (--runs 1)");
    }
    List<TtotalArtifact> each = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      if (runs > 1) {
        progress.accept(String.format(Locale.ROOT, "ttotal: run %d/%d", i + 1, runs));
      }
      TtotalArtifact t = TtotalRun.run(platform, o, clocks, progress);
      each.add(t);
      if (runs > 1) {
        progress.accept(
            String.format(
                Locale.ROOT,
                "ttotal: run %d/%d T_total %.1f s%s",
                i + 1,
                runs,
                t.tTotalS(),
                Boolean.TRUE.equals(t.tTotalBounded()) ? " (traffic not recovered: a floor)" : ""));
      }
    }
    TtotalArtifact combined = TtotalArtifact.combine(each);
    TtotalRuns r = combined.runs();
    if (r != null) {
      progress.accept(summary(r));
    }
    return combined;
  }

  /** {@code T_total over 5 runs: min 8.5 s, median 10.0 s, p90 25.9 s, max 25.9 s}. */
  static String summary(TtotalRuns r) {
    return String.format(
        Locale.ROOT,
        "T_total over %d runs: min %.1f s, median %.1f s, p90 %.1f s, max %.1f s%s",
        r.count(),
        r.tTotalMinS(),
        r.tTotalMedianS(),
        r.tTotalP90S(),
        r.tTotalMaxS(),
        r.boundedRuns() == null || r.boundedRuns() == 0
            ? ""
            : "; " + r.boundedRuns() + " did not see traffic recover (floors)");
  }
}
