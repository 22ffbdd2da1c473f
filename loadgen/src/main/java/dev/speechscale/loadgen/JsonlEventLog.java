package dev.speechscale.loadgen;

import dev.speechscale.platform.NanoClock;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;

/**
 * The per-request event log: one JSON object per line, one line per request (and per open-loop
 * drop), appended as requests end, so a run killed mid-ladder keeps what it measured up to the
 * last flush.
 *
 * <p>Fields: {@code load_model}, {@code run_index}, {@code step_index}, {@code concurrency},
 * {@code seq}, {@code worker}, {@code intended_at}, {@code sent_at}, {@code completed_at} (ISO-8601
 * wall time derived from the monotonic clock through one {@link TimeBase}, so intervals are
 * exact), {@code send_lag_ms}, {@code ttfab_ms} and {@code latency_ms} (both from the intended send
 * time; {@code ttfab_ms} null without audio), {@code outcome}, {@code status}, {@code audio_bytes},
 * {@code chars}, {@code error}. A drop has {@code outcome} {@code DROPPED} and only the schedule
 * fields.
 *
 * <p>Lines are buffered (64 KiB) and flushed by {@link #flush()} — the ladder flushes after each
 * rung — and on {@link #close()}: flushing per line would cost a system call per request, which
 * at benchmark rates makes the logger the bottleneck. Thread-safe.
 */
public final class JsonlEventLog implements RequestListener, AutoCloseable {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Writer out;
  private final TimeBase timeBase;

  /** Appends to {@code path}, creating it (and its parent folders) when missing. */
  public static JsonlEventLog open(Path path, NanoClock clock, Clock wall) {
    try {
      Path parent = path.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      return new JsonlEventLog(
          Files.newBufferedWriter(
              path,
              StandardCharsets.UTF_8,
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND,
              StandardOpenOption.WRITE),
          TimeBase.now(clock, wall));
    } catch (IOException e) {
      throw new LoadgenException(
          "cannot open the event log " + path + ": " + e.getMessage() + "; check the folder", e);
    }
  }

  public JsonlEventLog(Writer out, TimeBase timeBase) {
    this.out = out instanceof BufferedWriter ? out : new BufferedWriter(out, 64 * 1024);
    this.timeBase = timeBase;
  }

  @Override
  public void completed(RequestEvent e) {
    StringBuilder line = new StringBuilder(320);
    try (JsonGenerator g = JSON.createGenerator(new StringBuilderWriter(line))) {
      g.writeStartObject();
      g.writeStringProperty("load_model", e.loadModel().label());
      g.writeNumberProperty("run_index", e.runIndex());
      g.writeNumberProperty("step_index", e.stepIndex());
      g.writeNumberProperty("concurrency", e.concurrency());
      g.writeNumberProperty("seq", e.seq());
      g.writeNumberProperty("worker", e.worker());
      g.writeStringProperty("intended_at", timeBase.at(e.intendedNanos()).toString());
      g.writeStringProperty("sent_at", timeBase.at(e.sentNanos()).toString());
      g.writeStringProperty("completed_at", timeBase.at(e.completedNanos()).toString());
      g.writeNumberProperty("send_lag_ms", e.sendLagNanos() / 1e6);
      if (e.ttfabNanos() < 0) {
        g.writeNullProperty("ttfab_ms");
      } else {
        g.writeNumberProperty("ttfab_ms", e.ttfabNanos() / 1e6);
      }
      g.writeNumberProperty("latency_ms", e.latencyNanos() / 1e6);
      g.writeStringProperty("outcome", e.outcome().name());
      g.writeNumberProperty("status", e.status());
      g.writeNumberProperty("audio_bytes", e.audioBytes());
      g.writeNumberProperty("chars", e.chars());
      g.writeStringProperty("error", e.error());
      g.writeEndObject();
    }
    write(line);
  }

  @Override
  public void dropped(int phaseIndex, long seq, long intendedNanos) {
    StringBuilder line = new StringBuilder(160);
    try (JsonGenerator g = JSON.createGenerator(new StringBuilderWriter(line))) {
      g.writeStartObject();
      g.writeStringProperty("load_model", RequestEvent.LoadModel.OPEN_LOOP.label());
      g.writeNumberProperty("step_index", phaseIndex);
      g.writeNumberProperty("seq", seq);
      g.writeStringProperty("intended_at", timeBase.at(intendedNanos).toString());
      g.writeStringProperty("outcome", "DROPPED");
      g.writeEndObject();
    }
    write(line);
  }

  private void write(StringBuilder line) {
    line.append('\n');
    synchronized (out) {
      try {
        out.append(line);
      } catch (IOException ex) {
        throw new UncheckedIOException("cannot append to the event log: " + ex.getMessage(), ex);
      }
    }
  }

  /** Writes buffered lines out. */
  @Override
  public void flush() {
    synchronized (out) {
      try {
        out.flush();
      } catch (IOException ex) {
        throw new UncheckedIOException("cannot flush the event log: " + ex.getMessage(), ex);
      }
    }
  }

  @Override
  public void close() {
    synchronized (out) {
      try {
        out.close();
      } catch (IOException ex) {
        throw new UncheckedIOException("cannot close the event log: " + ex.getMessage(), ex);
      }
    }
  }

  /** A Writer onto a StringBuilder without StringWriter's synchronized buffer. */
  private static final class StringBuilderWriter extends Writer {
    private final StringBuilder sb;

    StringBuilderWriter(StringBuilder sb) {
      this.sb = sb;
    }

    @Override
    public void write(char[] cbuf, int off, int len) {
      sb.append(cbuf, off, len);
    }

    @Override
    public void write(String str, int off, int len) {
      sb.append(str, off, off + len);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
