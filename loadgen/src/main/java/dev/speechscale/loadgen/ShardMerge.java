package dev.speechscale.loadgen;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Merges the shards of one open-loop run ({@link Shard}, {@link ShardLog}) into one result: the
 * histograms of every shard added tag by tag (read with {@link HistogramLogReader}), and every
 * shard's event-log lines in schedule order. The merged arrivals — each line's {@code seq}, phase
 * and {@code schedule_offset_ns} — are exactly those a single process running the whole schedule
 * records; latencies differ only as runs do.
 *
 * @param count how many shards were merged
 * @param seed the schedule's seed
 * @param histograms tag ({@code p<phase>.<metric>}) to the sum over shards
 * @param arrivals every arrival (sent or dropped), in schedule order
 * @param answers how each of them ended, in the same order
 * @param lines the event-log lines in the same order
 */
public record ShardMerge(
    int count,
    long seed,
    Map<String, Histogram> histograms,
    List<Arrival> arrivals,
    List<Answer> answers,
    List<String> lines) {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  public ShardMerge {
    histograms = Map.copyOf(histograms);
    arrivals = List.copyOf(arrivals);
    answers = List.copyOf(answers);
    lines = List.copyOf(lines);
  }

  /**
   * One arrival of the schedule.
   *
   * @param seq its position in the whole schedule
   * @param phase its phase
   * @param offsetNanos its intended send time, from the schedule's start
   */
  public record Arrival(long seq, int phase, long offsetNanos) {}

  /**
   * How one arrival ended, as its event-log line says.
   *
   * @param outcome {@code OK}, {@code REJECTED}, {@code CLIENT_ERROR}, {@code SERVER_ERROR}, {@code
   *     TRANSPORT_ERROR}, or {@code DROPPED} (never sent)
   * @param ttfabMs first audio byte after the intended send time, or {@code null} without audio
   * @param sendLagMs actual minus intended send time, or {@code null} when never sent
   */
  public record Answer(String outcome, @Nullable Double ttfabMs, @Nullable Double sendLagMs) {}

  /**
   * Reads shard {@code k}'s HdrHistogram log {@code hlogs.get(k)} and event log {@code
   * eventLogs.get(k)} for every k; the logs must be shards 0..N-1 of one schedule, in any order.
   */
  public static ShardMerge read(List<Path> hlogs, List<Path> eventLogs) {
    if (hlogs.isEmpty() || hlogs.size() != eventLogs.size()) {
      throw new LoadgenException(
          "a merge needs one histogram log and one event log per shard (got "
              + hlogs.size()
              + " histogram logs and "
              + eventLogs.size()
              + " event logs)");
    }
    int count = -1;
    long seed = 0;
    boolean[] seen = null;
    Map<String, Histogram> sums = new TreeMap<>();
    for (Path hlog : hlogs) {
      Header h = header(hlog);
      if (seen == null) {
        count = h.shard.count();
        seed = h.seed;
        seen = new boolean[count];
      } else if (h.shard.count() != count || h.seed != seed) {
        throw new LoadgenException(
            hlog
                + " is shard "
                + h.shard
                + " of seed "
                + h.seed
                + ", not of the "
                + count
                + "-shard schedule of seed "
                + seed
                + " the first log names; merge the shards of one run only");
      }
      if (seen[h.shard.index()]) {
        throw new LoadgenException(
            "shard " + h.shard + " is given twice (" + hlog + "); give each shard once");
      }
      seen[h.shard.index()] = true;
      addIntervals(hlog, sums);
    }
    if (hlogs.size() != count) {
      throw new LoadgenException(
          "the run has "
              + count
              + " shards but "
              + hlogs.size()
              + " were given; merge all of them (k = 0.."
              + (count - 1)
              + ")");
    }
    List<Entry> entries = new ArrayList<>();
    for (Path log : eventLogs) {
      entries.addAll(entries(log));
    }
    entries.sort(Comparator.comparingLong(e -> e.arrival.seq()));
    for (int i = 1; i < entries.size(); i++) {
      if (entries.get(i).arrival.seq() == entries.get(i - 1).arrival.seq()) {
        throw new LoadgenException(
            "arrival seq "
                + entries.get(i).arrival.seq()
                + " appears twice in the event logs; give each shard's log once");
      }
    }
    return new ShardMerge(
        count,
        seed,
        sums,
        entries.stream().map(e -> e.arrival).toList(),
        entries.stream().map(e -> e.answer).toList(),
        entries.stream().map(e -> e.line).toList());
  }

  /**
   * Whether a shard has finished writing both logs: each is there and readable, and the histogram
   * log (written last) counts as many arrivals as the event log has lines. A log still being
   * written or copied is not complete.
   */
  public static boolean complete(Path hlog, Path eventLog) {
    if (!Files.isRegularFile(hlog) || !Files.isRegularFile(eventLog)) {
      return false;
    }
    try {
      header(hlog);
      Map<String, Histogram> sums = new TreeMap<>();
      addIntervals(hlog, sums);
      long arrivals =
          sums.entrySet().stream()
              .filter(e -> e.getKey().endsWith(".arrivals"))
              .mapToLong(e -> e.getValue().getTotalCount())
              .sum();
      if (!endsWithNewline(eventLog)) {
        return false; // its last line is still being written or copied
      }
      long lines;
      try (java.util.stream.Stream<String> l = Files.lines(eventLog, StandardCharsets.UTF_8)) {
        lines = l.filter(line -> !line.isBlank()).count(); // counted, not parsed: this is polled
      }
      return !sums.isEmpty() && arrivals == lines;
    } catch (IOException | RuntimeException e) {
      return false; // still being written: a truncated line or histogram
    }
  }

  private static boolean endsWithNewline(Path file) throws IOException {
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file)) {
      long size = ch.size();
      if (size == 0) {
        return true;
      }
      java.nio.ByteBuffer last = java.nio.ByteBuffer.allocate(1);
      ch.read(last, size - 1);
      return last.get(0) == '\n';
    }
  }

  /** The arrivals an open-loop event log records, in schedule order. */
  public static List<Arrival> arrivals(Path eventLog) {
    return entries(eventLog).stream()
        .sorted(Comparator.comparingLong(e -> e.arrival.seq()))
        .map(e -> e.arrival)
        .toList();
  }

  /** The merged histograms as one HdrHistogram log, and the merged event log. */
  public void write(Path hlog, Path eventLog) {
    try {
      JsonlEventLog.createParent(hlog);
      JsonlEventLog.createParent(eventLog);
      try (PrintStream out =
          new PrintStream(Files.newOutputStream(hlog), false, StandardCharsets.UTF_8)) {
        HistogramLogWriter w = new HistogramLogWriter(out);
        w.outputComment("speechscale-merge of " + count + " shards, seed=" + seed);
        w.outputLogFormatVersion();
        w.outputBaseTime(0);
        w.outputLegend();
        for (Map.Entry<String, Histogram> e : histograms.entrySet()) {
          Histogram h = e.getValue().copy();
          h.setTag(e.getKey());
          w.outputIntervalHistogram(
              h.getStartTimeStamp() / 1000.0, h.getEndTimeStamp() / 1000.0, h, 1.0);
        }
      }
      Files.write(eventLog, lines, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new LoadgenException("cannot write the merge: " + e.getMessage(), e);
    }
  }

  /** The merged histogram of {@code tag}, or an error naming the tags there are. */
  public Histogram histogram(String tag) {
    Histogram h = histograms.get(tag);
    if (h == null) {
      throw new LoadgenException(
          "no histogram tagged " + tag + "; there are " + histograms.keySet());
    }
    return h.copy();
  }

  private record Header(Shard shard, long seed) {}

  private record Entry(Arrival arrival, Answer answer, String line) {}

  private static Header header(Path hlog) {
    try {
      for (String line : Files.readAllLines(hlog, StandardCharsets.UTF_8)) {
        if (line.startsWith(ShardLog.HEADER)) {
          String[] parts = line.substring(ShardLog.HEADER.length()).trim().split("\\s+");
          Shard shard = Shard.parse(parts[0]);
          for (String part : parts) {
            if (part.startsWith("seed=")) {
              return new Header(shard, Long.parseLong(part.substring(5)));
            }
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new LoadgenException(
          "cannot read the shard header of " + hlog + ": " + e.getMessage(), e);
    }
    throw new LoadgenException(
        hlog
            + " has no '"
            + ShardLog.HEADER.trim()
            + " k/N seed=S' line; give the histogram log a shard wrote (ShardLog)");
  }

  private static void addIntervals(Path hlog, Map<String, Histogram> sums) {
    try {
      HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
      EncodableHistogram next;
      while ((next = reader.nextIntervalHistogram()) != null) {
        if (!(next instanceof Histogram h) || h.getTag() == null) {
          throw new LoadgenException(
              hlog + " holds an untagged or non-integer histogram; give a shard's log");
        }
        Histogram sum = sums.get(h.getTag());
        if (sum == null) {
          sums.put(h.getTag(), h.copy());
        } else {
          sum.add(h);
          sum.setStartTimeStamp(Math.min(sum.getStartTimeStamp(), h.getStartTimeStamp()));
          sum.setEndTimeStamp(Math.max(sum.getEndTimeStamp(), h.getEndTimeStamp()));
        }
      }
    } catch (IOException e) {
      throw new LoadgenException(
          "cannot read the histogram log " + hlog + ": " + e.getMessage(), e);
    }
  }

  private static @Nullable Double millis(JsonNode line, String field) {
    JsonNode v = line.get(field);
    return v == null || !v.isNumber() ? null : v.asDouble();
  }

  private static List<Entry> entries(Path eventLog) {
    List<Entry> out = new ArrayList<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(eventLog, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new LoadgenException(
          "cannot read the event log " + eventLog + ": " + e.getMessage(), e);
    }
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      try {
        JsonNode n = JSON.readTree(line);
        JsonNode offset = n.get("schedule_offset_ns");
        if (offset == null || !offset.isIntegralNumber()) {
          throw new LoadgenException(
              eventLog
                  + " line "
                  + (i + 1)
                  + " has no schedule_offset_ns; give the event log of an open-loop run");
        }
        out.add(
            new Entry(
                new Arrival(n.get("seq").asLong(), n.get("step_index").asInt(), offset.asLong()),
                new Answer(
                    n.path("outcome").asString(""),
                    millis(n, "ttfab_ms"),
                    millis(n, "send_lag_ms")),
                line));
      } catch (JacksonException e) {
        throw new LoadgenException(
            eventLog + " line " + (i + 1) + " is not JSON: " + e.getOriginalMessage(), e);
      }
    }
    Objects.requireNonNull(out);
    return out;
  }
}
