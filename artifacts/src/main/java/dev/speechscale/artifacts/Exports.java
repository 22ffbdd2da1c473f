package dev.speechscale.artifacts;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Artifacts in the formats other tools read: the ladder as CSV, a rung's histogram as
 * HdrHistogram's percentile distribution ({@code .hgrm}, what HistogramLogAnalyzer and wrk2 users
 * plot), the per-request event log as CSV. Pure: strings in, strings out.
 */
public final class Exports {
  private Exports() {}

  /** The ladder's columns, in order; units in the names as in the artifact. */
  public static final List<String> LADDER_COLUMNS =
      List.of(
          "run",
          "step",
          "concurrency",
          "completed",
          "ok",
          "rejected",
          "achieved_rps",
          "concurrency_mean",
          "ttfab_p50_ms",
          "ttfab_p95_ms",
          "ttfab_p99_ms",
          "latency_mean_ms",
          "latency_p95_ms",
          "server_concurrency_peak",
          "server_concurrency_mean",
          "usable",
          "unusable_reason",
          "meets_slo",
          "chars",
          "ttfab_drift_ms",
          "queue_wait_p50_ms",
          "queue_wait_p95_ms",
          "engine_first_chunk_p50_ms",
          "engine_first_chunk_p95_ms",
          "audio_mean_s");

  /** The event log's columns, in order (the JSONL keys {@code qmax --events} writes). */
  public static final List<String> EVENT_COLUMNS =
      List.of(
          "load_model",
          "run_index",
          "step_index",
          "concurrency",
          "seq",
          "worker",
          "intended_at",
          "sent_at",
          "completed_at",
          "send_lag_ms",
          "ttfab_ms",
          "latency_ms",
          "outcome",
          "status",
          "audio_bytes",
          "chars",
          "error",
          "queue_wait_ms",
          "engine_first_chunk_ms",
          "audio_s",
          "instance");

  /**
   * The ladder's steps as CSV, sorted by run, then N, then the order measured; empty cells for
   * absent values.
   */
  public static String ladderCsv(QmaxArtifact q) {
    StringBuilder out = new StringBuilder(String.join(",", LADDER_COLUMNS)).append('\n');
    List<QmaxStep> steps = new ArrayList<>(q.steps());
    steps.sort(
        Comparator.comparingInt(QmaxStep::run)
            .thenComparingInt(QmaxStep::concurrency)
            .thenComparingInt(s -> s.stepIndex() == null ? 0 : s.stepIndex()));
    for (QmaxStep s : steps) {
      StepBreakdown b = s.breakdown();
      List<String> cells =
          List.of(
              Integer.toString(s.run()),
              cell(s.stepIndex()),
              Integer.toString(s.concurrency()),
              cell(s.completed()),
              cell(s.ok()),
              cell(s.rejected()),
              cell(s.achievedRps()),
              cell(s.concurrencyMean()),
              cell(s.ttfabP50Ms()),
              cell(s.ttfabP95Ms()),
              cell(s.ttfabP99Ms()),
              cell(s.latencyMeanMs()),
              cell(s.latencyP95Ms()),
              cell(s.serverConcurrencyPeak()),
              cell(s.serverConcurrencyMean()),
              Boolean.toString(s.isUsable()),
              quote(s.unusableReason()),
              cell(s.meetsSlo()),
              cell(s.chars()),
              cell(s.ttfabDriftMs()),
              b == null ? "" : cell(b.queueWaitP50Ms()),
              b == null ? "" : cell(b.queueWaitP95Ms()),
              b == null ? "" : cell(b.engineFirstChunkP50Ms()),
              b == null ? "" : cell(b.engineFirstChunkP95Ms()),
              b == null ? "" : cell(b.audioMeanS()));
      out.append(String.join(",", cells)).append('\n');
    }
    return out.toString();
  }

  /**
   * An encoded microsecond histogram as HdrHistogram's percentile distribution in milliseconds (5
   * reporting ticks per half distance), the {@code .hgrm} text format.
   *
   * @throws ArtifactException when {@code encoded} is not an encoded histogram
   */
  public static String hgrm(String encoded) {
    Histogram h = Histograms.decode(encoded);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (PrintStream print = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      h.outputPercentileDistribution(print, 5, 1000.0);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /**
   * A JSON-lines event log as CSV with {@link #EVENT_COLUMNS}; keys a line lacks (a dropped arrival
   * has no times but its intended one) are empty cells, keys not in the list are left out.
   *
   * @param file the log's name, for errors
   * @param lines the log's lines
   * @throws ArtifactException naming the file, the line number and the start of a line that is not
   *     a JSON object
   */
  public static String eventsCsv(String file, List<String> lines) {
    StringBuilder out = new StringBuilder(String.join(",", EVENT_COLUMNS)).append('\n');
    int number = 0;
    for (String line : lines) {
      number++;
      if (line.isBlank()) {
        continue;
      }
      JsonNode node;
      try {
        node = ArtifactCodec.mapper().readTree(line);
      } catch (JacksonException e) {
        node = null;
      }
      if (node == null || !node.isObject()) {
        throw new ArtifactException(
            String.format(
                Locale.ROOT,
                "%s line %d is not a JSON object: %s; give the file qmax --events or replay"
                    + " --events wrote",
                file,
                number,
                line.length() > 60 ? line.substring(0, 60) + "..." : line));
      }
      List<String> cells = new ArrayList<>(EVENT_COLUMNS.size());
      for (String column : EVENT_COLUMNS) {
        JsonNode v = node.get(column);
        cells.add(v == null || v.isNull() ? "" : v.isString() ? quote(v.asString()) : v.toString());
      }
      out.append(String.join(",", cells)).append('\n');
    }
    return out.toString();
  }

  private static String cell(@Nullable Object value) {
    return value == null ? "" : value.toString();
  }

  /** RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled. */
  static String quote(@Nullable String value) {
    if (value == null) {
      return "";
    }
    if (value.indexOf(',') < 0
        && value.indexOf('"') < 0
        && value.indexOf('\n') < 0
        && value.indexOf('\r') < 0) {
      return value;
    }
    return '"' + value.replace("\"", "\"\"") + '"';
  }
}
