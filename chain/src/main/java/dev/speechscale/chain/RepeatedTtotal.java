package dev.speechscale.chain;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.TtotalRuns;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * {@code ttotal --runs N}: times the scale-out N times, each a complete {@link TtotalRun} (its own
 * freeze, probe and restore to one instance, so every run starts from the same capacity), and
 * combines them into one artifact carrying every run and the spread of T_total. One run is exactly
 * {@link TtotalRun#run}.
 */
public final class RepeatedTtotal {
  private RepeatedTtotal() {}

  /**
   * Times the request's scale-outs and returns the combined artifact (derived values recomputed).
   */
  public static TtotalArtifact run(
      Platform platform, TtotalRequest request, NanoClock clocks, Consumer<String> progress) {
    int runs = request.runs();
    if (runs < 1) {
      throw new ChainException(
          Flags.RUNS + " is " + runs + "; time at least one scale-out (--runs 1)");
    }
    TtotalRun.Options o = request.options(ArtifactCodec.readQmax(request.qmax()));
    List<TtotalArtifact> each = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    ChainException last = null;
    for (int i = 0; i < runs; i++) {
      if (runs > 1) {
        progress.accept(String.format(Locale.ROOT, "ttotal: run %d/%d", i + 1, runs));
      }
      TtotalArtifact t;
      try {
        t = TtotalRun.run(platform, o, clocks, progress);
      } catch (ChainException e) {
        if (runs == 1) {
          throw e;
        }
        // the freeze was restored on the way out; the next run starts from one instance again
        last = e;
        failed.add("scale-out " + (i + 1) + " of " + runs + " failed: " + e.getMessage());
        progress.accept(
            String.format(
                Locale.ROOT, "ttotal: run %d/%d failed: %s", i + 1, runs, e.getMessage()));
        continue;
      }
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
    if (each.isEmpty()) {
      throw new ChainException(
          "none of the "
              + runs
              + " scale-outs completed; the last: "
              + Objects.requireNonNull(last, "every run failed, so one was the last").getMessage());
    }
    TtotalArtifact combined = TtotalArtifact.combine(each);
    if (!failed.isEmpty()) {
      combined = withNotes(combined, failed, o.timing().timeout());
    }
    TtotalRuns r = combined.runs();
    if (r != null) {
      progress.accept(summary(r));
    }
    return combined;
  }

  /**
   * The combined artifact with a note per failed run: a run that timed out took longer than any
   * recorded one, so the recorded maximum understates T.
   */
  static TtotalArtifact withNotes(
      TtotalArtifact t, List<String> failed, java.time.@Nullable Duration timeout) {
    List<String> notes = new ArrayList<>(t.notes());
    notes.addAll(failed);
    notes.add(
        failed.size()
            + " of "
            + (failed.size() + t.runCount())
            + " scale-outs did not complete and are not among the runs: a run that found no"
            + " recovery within "
            + (timeout == null ? "its timeout (derived from the platform)" : timeout)
            + " was slower than every recorded one, so t_total_max_s understates T; re-measure"
            + " on a quiet machine or size against the timeout");
    return t.withNotes(notes);
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
