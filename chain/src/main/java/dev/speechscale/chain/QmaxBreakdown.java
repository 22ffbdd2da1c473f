package dev.speechscale.chain;

import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.StepBreakdown;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Queue against engine per rung, in lines for people (the CLI, and the report when it shows them):
 * where the server says each rung's time to first audio went — waiting for an execution slot, or in
 * the engine until its first chunk — beside the client's p95 TTFAB, as perf_analyzer shows queue
 * against compute. Rising queue wait with flat engine time is the instance out of slots; rising
 * engine time is the engine slowing under contention.
 */
public final class QmaxBreakdown {
  private QmaxBreakdown() {}

  /**
   * A heading and one line per step that carries a breakdown, sorted by run then N; nothing for an
   * artifact whose steps carry none (older artifacts, servers that send no timing headers).
   */
  public static List<String> lines(QmaxArtifact a) {
    List<StepWith<StepBreakdown>> steps = new ArrayList<>(StepWith.of(a, QmaxStep::breakdown));
    if (steps.isEmpty()) {
      return List.of();
    }
    steps.sort(
        Comparator.comparingInt((StepWith<StepBreakdown> x) -> x.step().run())
            .thenComparingInt(x -> x.step().concurrency()));
    boolean runs = steps.stream().anyMatch(x -> x.step().run() > 0);
    List<String> out = new ArrayList<>();
    out.add(
        "server breakdown per rung (p50 / p95 ms): queue = waiting for an execution slot,"
            + " engine = the engine's time to its first chunk");
    out.add(
        String.format(
            Locale.ROOT,
            "  %-8s %19s %19s %15s %12s",
            "rung",
            "queue p50 / p95",
            "engine p50 / p95",
            "TTFAB p95",
            "audio/req"));
    for (StepWith<StepBreakdown> x : steps) {
      QmaxStep s = x.step();
      StepBreakdown b = x.part();
      out.add(
          String.format(
              Locale.ROOT,
              "  %-8s %19s %19s %15s %12s",
              (runs ? "r" + (s.run() + 1) + " " : "") + "N=" + s.concurrency(),
              pair(b.queueWaitP50Ms(), b.queueWaitP95Ms()),
              pair(b.engineFirstChunkP50Ms(), b.engineFirstChunkP95Ms()),
              s.ttfabP95Ms() == null ? "-" : String.format(Locale.ROOT, "%.1f", s.ttfabP95Ms()),
              b.audioMeanS() == null ? "-" : String.format(Locale.ROOT, "%.2f s", b.audioMeanS())));
    }
    return out;
  }

  private static String pair(@Nullable Double p50, @Nullable Double p95) {
    if (p50 == null || p95 == null) {
      return "-";
    }
    return String.format(Locale.ROOT, "%.1f / %.1f", p50, p95);
  }
}
