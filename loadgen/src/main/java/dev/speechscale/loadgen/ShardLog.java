package dev.speechscale.loadgen;

import dev.speechscale.artifacts.Histograms;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * What one shard of an open-loop run writes besides its event log: an HdrHistogram log ({@link
 * HistogramLogWriter}, the format {@code HistogramLogProcessor} and {@link ShardMerge} read), one
 * interval per phase and metric, each tagged {@code p<phase>.<metric>}:
 *
 * <ul>
 *   <li>{@code arrivals} — every arrival of the shard (sent or dropped), at its intended offset
 *       from the schedule start in microseconds: its count is the shard's arrival count;
 *   <li>{@code dropped} — the dropped arrivals, the same way;
 *   <li>{@code send_lag}, {@code ttfab}, {@code latency} — microseconds, as in {@link
 *       OpenLoopResult.PhaseResult} (TTFAB and latency of successful requests, from the intended
 *       time).
 * </ul>
 *
 * <p>A comment line {@code #speechscale-shard k/N seed=S phases=P} says which shard of which
 * schedule wrote it, so a merge refuses shards of different runs. Register the log as the driver's
 * listener (with the event log, {@link RequestListener#both}) to learn the schedule's start and the
 * drops; write it after the run.
 */
public final class ShardLog implements RequestListener {
  static final String HEADER = "#speechscale-shard ";

  private final Shard shard;
  private final ConcurrentLinkedQueue<long[]> drops = new ConcurrentLinkedQueue<>();
  private volatile long start = Long.MIN_VALUE;

  public ShardLog(Shard shard) {
    this.shard = Objects.requireNonNull(shard, "shard");
  }

  @Override
  public void completed(RequestEvent event) {}

  @Override
  public void dropped(int phaseIndex, long seq, long intendedNanos) {
    drops.add(new long[] {phaseIndex, intendedNanos});
  }

  @Override
  public void scheduleStarted(long startNanos) {
    start = startNanos;
    drops.clear();
  }

  /** Writes the HdrHistogram log of {@code result}, this shard's run of {@code spec}. */
  public void write(Path path, OpenLoopSpec spec, OpenLoopResult result) {
    long startNanos = start;
    if (startNanos == Long.MIN_VALUE) {
      throw new LoadgenException(
          "the shard log was not the driver's listener during the run; pass it to the"
              + " OpenLoopDriver (RequestListener.both) before writing "
              + path);
    }
    int phases = spec.phases().size();
    Histogram[] arrivals = new Histogram[phases];
    Histogram[] dropped = new Histogram[phases];
    for (int p = 0; p < phases; p++) {
      arrivals[p] = Histograms.newMicros();
      dropped[p] = Histograms.newMicros();
    }
    for (RequestEvent e : result.events()) {
      Histograms.recordNanos(arrivals[e.stepIndex()], e.intendedNanos() - startNanos);
    }
    for (long[] d : drops) {
      Histograms.recordNanos(arrivals[(int) d[0]], d[1] - startNanos);
      Histograms.recordNanos(dropped[(int) d[0]], d[1] - startNanos);
    }
    try {
      JsonlEventLog.createParent(path);
      try (PrintStream out =
          new PrintStream(Files.newOutputStream(path), false, StandardCharsets.UTF_8)) {
        HistogramLogWriter log = new HistogramLogWriter(out);
        log.outputComment(
            HEADER.substring(1) + shard + " seed=" + spec.seed() + " phases=" + phases);
        log.outputLogFormatVersion();
        log.outputBaseTime(0);
        log.outputLegend();
        double phaseStart = 0;
        for (int p = 0; p < phases; p++) {
          OpenLoopResult.PhaseResult r = result.phases().get(p);
          double phaseEnd = phaseStart + spec.phases().get(p).duration().toNanos() / 1e9;
          interval(log, "p" + p + ".arrivals", arrivals[p], phaseStart, phaseEnd);
          interval(log, "p" + p + ".dropped", dropped[p], phaseStart, phaseEnd);
          interval(log, "p" + p + ".send_lag", r.sendLagHistogram(), phaseStart, phaseEnd);
          interval(log, "p" + p + ".ttfab", r.ttfabHistogram(), phaseStart, phaseEnd);
          interval(log, "p" + p + ".latency", r.latencyHistogram(), phaseStart, phaseEnd);
          phaseStart = phaseEnd;
        }
        if (out.checkError()) {
          throw new IOException("write failed");
        }
      }
    } catch (IOException e) {
      throw new LoadgenException(
          "cannot write the shard's histogram log " + path + ": " + e.getMessage(), e);
    }
  }

  private static void interval(
      HistogramLogWriter log, String tag, Histogram h, double startS, double endS) {
    h.setTag(tag);
    h.setStartTimeStamp(Math.round(startS * 1000));
    h.setEndTimeStamp(Math.round(endS * 1000));
    log.outputIntervalHistogram(startS, endS, h, 1.0);
  }
}
