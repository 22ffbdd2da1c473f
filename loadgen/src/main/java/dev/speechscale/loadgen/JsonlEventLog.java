package dev.speechscale.loadgen;

import dev.speechscale.platform.JsonText;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.ResponseBreakdown;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.LongFunction;
import org.jspecify.annotations.Nullable;

/**
 * The per-request event log: one JSON object per line, one line per request (and per open-loop
 * drop), appended as requests end, so a run killed mid-ladder keeps what it measured up to the last
 * flush.
 *
 * <p>Fields: {@code load_model}, {@code run_index}, {@code step_index}, {@code concurrency}, {@code
 * seq}, {@code worker}, {@code intended_at}, {@code sent_at}, {@code completed_at} (ISO-8601 wall
 * time derived from the monotonic clock through one {@link NanoClock#anchor anchor}, so intervals
 * are exact), {@code send_lag_ms}, {@code ttfab_ms} and {@code latency_ms} (both from the intended
 * send time; {@code ttfab_ms} null without audio), {@code outcome}, {@code status}, {@code
 * audio_bytes}, {@code chars}, {@code error}, then (additive) {@code queue_wait_ms} and {@code
 * engine_first_chunk_ms} (the server's {@code X-Queue-Wait-Us} and {@code X-Engine-First-Chunk-Us})
 * and {@code audio_s} (seconds of audio received), then (additive) {@code instance} (the instance
 * that served the request, from the local router's {@code X-Speechscale-Instance}), each null when
 * the response did not say. A drop has {@code outcome} {@code DROPPED} and only the schedule
 * fields. In an open-loop run every line ends with (additive) {@code schedule_offset_ns}: the
 * intended send time in nanoseconds from the schedule's start, exact and the same in every process
 * that runs the schedule (the shards of {@link Shard}); closed-loop lines do not have it.
 *
 * <p>Lines are buffered (64 KiB) and flushed by {@link #flush()} — the ladder flushes after each
 * rung — and on {@link #close()}: flushing per line would cost a system call per request, which at
 * benchmark rates makes the logger the bottleneck. Thread-safe.
 */
public final class JsonlEventLog implements RequestListener, AutoCloseable {
  private final OutputStream out;
  private final LongFunction<Instant> wallOf;
  private volatile @Nullable Second lastSecond;
  private static final long NO_SCHEDULE = Long.MIN_VALUE;
  private volatile long scheduleStart = NO_SCHEDULE;

  /** Appends to {@code path}, creating it (and its parent folders) when missing. */
  public static JsonlEventLog open(Path path, NanoClock clock, Clock wall) {
    try {
      createParent(path);
      return new JsonlEventLog(
          Files.newOutputStream(
              path, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE),
          clock.anchor(wall));
    } catch (IOException e) {
      throw new LoadgenException(
          "cannot open the event log " + path + ": " + e.getMessage() + "; check the folder", e);
    }
  }

  /** Creates the folders {@code path} goes in, when missing. */
  static void createParent(Path path) throws IOException {
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
  }

  /**
   * Writes UTF-8 lines to {@code out}, buffered; closing the log closes it. {@code wallOf} turns a
   * monotonic reading into its wall-clock instant ({@link NanoClock#anchor}).
   */
  public JsonlEventLog(OutputStream out, LongFunction<Instant> wallOf) {
    this.out = new BufferedOutputStream(out, 64 * 1024);
    this.wallOf = wallOf;
  }

  @Override
  public void completed(RequestEvent e) {
    StringBuilder line = new StringBuilder(360);
    line.append("{\"load_model\":\"").append(e.loadModel().label());
    line.append("\",\"run_index\":").append(e.runIndex());
    line.append(",\"step_index\":").append(e.stepIndex());
    line.append(",\"concurrency\":").append(e.concurrency());
    line.append(",\"seq\":").append(e.seq());
    line.append(",\"worker\":").append(e.worker());
    line.append(",\"intended_at\":");
    instant(line, e.intendedNanos());
    line.append(",\"sent_at\":");
    instant(line, e.sentNanos());
    line.append(",\"completed_at\":");
    instant(line, e.completedNanos());
    line.append(",\"send_lag_ms\":");
    millis(line, e.sendLagNanos());
    line.append(",\"ttfab_ms\":");
    if (e.ttfabNanos() < 0) {
      line.append("null");
    } else {
      millis(line, e.ttfabNanos());
    }
    line.append(",\"latency_ms\":");
    millis(line, e.latencyNanos());
    line.append(",\"outcome\":\"").append(e.outcome().name());
    line.append("\",\"status\":").append(e.status());
    line.append(",\"audio_bytes\":").append(e.audioBytes());
    line.append(",\"chars\":").append(e.chars());
    line.append(",\"error\":");
    string(line, e.error());
    ResponseBreakdown b = e.breakdown();
    line.append(",\"queue_wait_ms\":");
    microsAsMillis(line, b.queueWaitUs());
    line.append(",\"engine_first_chunk_ms\":");
    microsAsMillis(line, b.engineFirstChunkUs());
    line.append(",\"audio_s\":");
    if (b.hasAudioSeconds()) {
      // four decimals (0.1 ms of audio) without String.format, which costs per request
      long tenThousandths = Math.round(b.audioSeconds() * 10_000);
      line.append(tenThousandths / 10_000).append('.');
      long frac = tenThousandths % 10_000;
      for (long p = 1000; p > 1 && frac < p; p /= 10) {
        line.append('0');
      }
      line.append(frac);
    } else {
      line.append("null");
    }
    line.append(",\"instance\":");
    string(line, b.instance());
    if (e.loadModel() == RequestEvent.LoadModel.OPEN_LOOP) {
      scheduleOffset(line, e.intendedNanos());
    }
    line.append('}');
    write(line);
  }

  @Override
  public void dropped(int phaseIndex, long seq, long intendedNanos) {
    StringBuilder line = new StringBuilder(160);
    line.append("{\"load_model\":\"").append(RequestEvent.LoadModel.OPEN_LOOP.label());
    line.append("\",\"step_index\":").append(phaseIndex);
    line.append(",\"seq\":").append(seq);
    line.append(",\"intended_at\":");
    instant(line, intendedNanos);
    line.append(",\"outcome\":\"DROPPED\"");
    scheduleOffset(line, intendedNanos);
    line.append('}');
    write(line);
  }

  @Override
  public void scheduleStarted(long startNanos) {
    scheduleStart = startNanos;
  }

  private void scheduleOffset(StringBuilder line, long intendedNanos) {
    long startNanos = scheduleStart;
    if (startNanos != NO_SCHEDULE) {
      line.append(",\"schedule_offset_ns\":").append(intendedNanos - startNanos);
    }
  }

  /**
   * A quoted ISO-8601 UTC instant with microseconds ({@code "2026-01-01T00:00:00.001000Z"}). The
   * date-time part is formatted once per second and reused: formatting three instants per request
   * with {@code Instant.toString} made the log the generator's bottleneck.
   */
  private void instant(StringBuilder line, long nanos) {
    Instant at = wallOf.apply(nanos);
    long second = at.getEpochSecond();
    Second cached = lastSecond;
    if (cached == null || cached.epochSecond != second) {
      cached =
          new Second(
              second,
              LocalDateTime.ofEpochSecond(second, 0, ZoneOffset.UTC)
                  .format(DateTimeFormatter.ISO_LOCAL_DATE_TIME)
                  .substring(0, 19));
      lastSecond = cached;
    }
    line.append('"').append(cached.text).append('.');
    pad6(line, at.getNano() / 1000);
    line.append("Z\"");
  }

  /** The date-time text of one epoch second. */
  private record Second(long epochSecond, String text) {}

  /** Milliseconds with exactly three decimals (microsecond resolution), from nanoseconds. */
  static void millis(StringBuilder line, long nanos) {
    long micros = Math.floorDiv(nanos, 1000);
    if (micros < 0) {
      line.append('-');
      micros = -micros;
    }
    line.append(micros / 1000).append('.');
    long frac = micros % 1000;
    if (frac < 100) {
      line.append('0');
    }
    if (frac < 10) {
      line.append('0');
    }
    line.append(frac);
  }

  /** Microseconds as milliseconds with three decimals, or null for -1 (not sent). */
  private static void microsAsMillis(StringBuilder line, long micros) {
    if (micros < 0) {
      line.append("null");
    } else {
      millis(line, micros * 1000);
    }
  }

  private static void pad6(StringBuilder line, long value) {
    for (long p = 100_000; p > 1 && value < p; p /= 10) {
      line.append('0');
    }
    line.append(value);
  }

  /** A JSON string or null, escaped per RFC 8259. */
  static void string(StringBuilder line, @Nullable String s) {
    if (s == null) {
      line.append("null");
      return;
    }
    JsonText.appendQuoted(line, s);
  }

  private void write(StringBuilder line) {
    // encoded outside the lock, so workers contend only for the copy into the buffer
    byte[] bytes = line.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    underLock("append to", () -> out.write(bytes));
  }

  /** Writes buffered lines out. */
  @Override
  public void flush() {
    underLock("flush", out::flush);
  }

  @Override
  public void close() {
    underLock("close", out::close);
  }

  /** Runs {@code io} on the stream under its lock; a failure says what could not be done. */
  private void underLock(String what, StreamIo io) {
    synchronized (out) {
      try {
        io.run();
      } catch (IOException ex) {
        throw new UncheckedIOException("cannot " + what + " the event log: " + ex.getMessage(), ex);
      }
    }
  }

  @FunctionalInterface
  private interface StreamIo {
    void run() throws IOException;
  }
}
