package dev.speechscale.loadgen;

import dev.speechscale.artifacts.Histograms;
import dev.speechscale.artifacts.StepBreakdown;
import dev.speechscale.capacity.Percentiles;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.ResponseBreakdown;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * What one measurement window of a closed-loop rung holds — pure arithmetic over request events, no
 * clock.
 *
 * <ul>
 *   <li><b>Attribution by end time</b>: a request belongs to the window [start, end) when its
 *       response <em>ended</em> inside it, so {@code achievedRps} is a throughput.
 *   <li><b>Percentiles over successful requests only</b> ({@link Percentiles#linear(long[],
 *       double)} on the raw samples): a fast 503 must not pull p95 down under overload; rejections
 *       are counted apart.
 *   <li><b>Client mean concurrency</b> is time-weighted: the sum over <em>all</em> requests (any
 *       outcome, ended inside the window or not) of the time each was outstanding — from its send
 *       to its end — inside the window, divided by the window's length. In a closed loop it falls
 *       short of N exactly by the time workers spend between one response's end and the next send:
 *       the client's own turnaround.
 *   <li><b>TTFAB drift</b>: order the window's successful requests by end time, take the first
 *       ⌊n/3⌋ and the last ⌊n/3⌋, and subtract the median TTFAB of the first third from the median
 *       of the last third. Positive = still climbing (a queue still filling), negative = still
 *       draining. Needs n ≥ 3; otherwise {@code null}.
 * </ul>
 *
 * @param concurrency the rung's N
 * @param windowStartNanos window start (inclusive)
 * @param windowEndNanos window end (exclusive)
 * @param completed requests that ended in the window, any outcome
 * @param ok successful ones
 * @param rejected refusals (503/408/429)
 * @param outcomes completions by outcome
 * @param achievedRps ok completions per second of window
 * @param concurrencyMean time-weighted client in-flight over the window
 * @param ttfabP50Ms p50 TTFAB of ok requests, {@code null} when none (as are the other percentiles
 *     and the mean)
 * @param ttfabP95Ms p95 TTFAB
 * @param ttfabP99Ms p99 TTFAB
 * @param latencyMeanMs mean full-response latency of ok requests
 * @param latencyP50Ms p50 latency
 * @param latencyP95Ms p95 latency
 * @param latencyP99Ms p99 latency
 * @param ttfabDriftMs drift as defined above, {@code null} when fewer than 3 ok requests
 * @param chars characters (code points) synthesised by the ok requests
 * @param ttfabHistogram TTFAB of ok requests in microseconds (a copy is returned)
 * @param latencyHistogram full latency of ok requests in microseconds (a copy is returned)
 * @param breakdown the ok requests' server queue wait and engine first chunk (p50, p95) and mean
 *     audio seconds, as far as their responses said; {@code null} when none said anything
 */
public record WindowStats(
    int concurrency,
    long windowStartNanos,
    long windowEndNanos,
    long completed,
    long ok,
    long rejected,
    Map<Outcome, Long> outcomes,
    double achievedRps,
    double concurrencyMean,
    @Nullable Double ttfabP50Ms,
    @Nullable Double ttfabP95Ms,
    @Nullable Double ttfabP99Ms,
    @Nullable Double latencyMeanMs,
    @Nullable Double latencyP50Ms,
    @Nullable Double latencyP95Ms,
    @Nullable Double latencyP99Ms,
    @Nullable Double ttfabDriftMs,
    long chars,
    Histogram ttfabHistogram,
    Histogram latencyHistogram,
    @Nullable StepBreakdown breakdown) {

  public WindowStats {
    outcomes = Map.copyOf(outcomes);
    ttfabHistogram = ttfabHistogram.copy();
    latencyHistogram = latencyHistogram.copy();
  }

  @Override
  public Histogram ttfabHistogram() {
    return ttfabHistogram.copy();
  }

  @Override
  public Histogram latencyHistogram() {
    return latencyHistogram.copy();
  }

  public double windowSeconds() {
    return (windowEndNanos - windowStartNanos) / 1e9;
  }

  /** Completions that failed for a reason other than a rejection. */
  public long failed() {
    return completed - ok - rejected;
  }

  /**
   * Computes a window's statistics from a rung's events.
   *
   * @throws LoadgenException when the window is empty or inverted
   */
  public static WindowStats compute(
      List<RequestEvent> events, int concurrency, long windowStartNanos, long windowEndNanos) {
    if (windowEndNanos <= windowStartNanos) {
      throw new LoadgenException(
          "window ["
              + windowStartNanos
              + ", "
              + windowEndNanos
              + ") is empty; the window end must be after its start");
    }
    long windowNanos = windowEndNanos - windowStartNanos;
    Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);
    List<RequestEvent> okEvents = new ArrayList<>();
    double outstandingNanos = 0;
    long completed = 0;
    long chars = 0;
    for (RequestEvent e : events) {
      long from = Math.max(e.sentNanos(), windowStartNanos);
      long to = Math.min(e.completedNanos(), windowEndNanos);
      if (to > from) {
        outstandingNanos += to - from;
      }
      if (e.completedNanos() >= windowStartNanos && e.completedNanos() < windowEndNanos) {
        completed++;
        outcomes.merge(e.outcome(), 1L, Long::sum);
        if (e.ok()) {
          okEvents.add(e);
          chars += e.chars();
        }
      }
    }
    okEvents.sort(Comparator.comparingLong(RequestEvent::completedNanos));
    long ok = okEvents.size();
    long rejected = outcomes.getOrDefault(Outcome.REJECTED, 0L);
    Histogram ttfabHist = Histograms.newMicros();
    Histogram latencyHist = Histograms.newMicros();
    long[] ttfab = new long[okEvents.size()];
    long[] latency = new long[okEvents.size()];
    double latencySum = 0;
    for (int i = 0; i < ttfab.length; i++) {
      RequestEvent e = okEvents.get(i);
      ttfab[i] = Math.max(0, e.ttfabNanos());
      latency[i] = e.latencyNanos();
      latencySum += latency[i];
      Histograms.recordNanos(ttfabHist, ttfab[i]);
      Histograms.recordNanos(latencyHist, latency[i]);
    }
    Double drift = drift(ttfab);
    long[] ttfabSorted = ttfab.clone();
    Arrays.sort(ttfabSorted);
    Arrays.sort(latency);
    return new WindowStats(
        concurrency,
        windowStartNanos,
        windowEndNanos,
        completed,
        ok,
        rejected,
        outcomes,
        ok / (windowNanos / 1e9),
        outstandingNanos / windowNanos,
        ms(ttfabSorted, 50),
        ms(ttfabSorted, 95),
        ms(ttfabSorted, 99),
        ok == 0 ? null : latencySum / ok / 1e6,
        ms(latency, 50),
        ms(latency, 95),
        ms(latency, 99),
        drift,
        chars,
        ttfabHist,
        latencyHist,
        breakdown(okEvents));
  }

  /** The server's side of the ok requests' time, and their audio, from their responses. */
  static @Nullable StepBreakdown breakdown(List<RequestEvent> okEvents) {
    long[] queue = new long[okEvents.size()];
    long[] engine = new long[okEvents.size()];
    double[] audio = new double[okEvents.size()];
    double[] serviceMs = new double[okEvents.size()];
    for (int i = 0; i < queue.length; i++) {
      RequestEvent e = okEvents.get(i);
      ResponseBreakdown b = e.breakdown();
      queue[i] = b.queueWaitUs();
      engine[i] = b.engineFirstChunkUs();
      audio[i] = b.audioSeconds();
      // as the warm-up ramp takes it (chain's WarmupRecorder): sent to last byte, less queue wait
      serviceMs[i] =
          b.hasQueueWait()
              ? (e.completedNanos() - e.sentNanos()) / 1e6 - b.queueWaitUs() / 1e3
              : Double.NaN;
    }
    return StepBreakdown.of(queue, engine, audio, serviceMs);
  }

  /** Median of the last third minus median of the first third, in ms; ttfab in end-time order. */
  static @Nullable Double drift(long[] ttfabByEndTime) {
    int third = ttfabByEndTime.length / 3;
    if (third == 0) {
      return null;
    }
    long[] first = Arrays.copyOfRange(ttfabByEndTime, 0, third);
    long[] last =
        Arrays.copyOfRange(ttfabByEndTime, ttfabByEndTime.length - third, ttfabByEndTime.length);
    Arrays.sort(first);
    Arrays.sort(last);
    return (Percentiles.linear(last, 50) - Percentiles.linear(first, 50)) / 1e6;
  }

  private static @Nullable Double ms(long[] sortedNanos, double p) {
    return sortedNanos.length == 0 ? null : Percentiles.linear(sortedNanos, p) / 1e6;
  }

  /**
   * Times a worker started a request before its previous one ended — impossible in a correct closed
   * loop, so any count above zero is a bug flag (outstanding requests exceeded N).
   */
  public static int workerOverlaps(List<RequestEvent> events) {
    Map<Integer, List<RequestEvent>> byWorker = new HashMap<>();
    for (RequestEvent e : events) {
      byWorker.computeIfAbsent(e.worker(), w -> new ArrayList<>()).add(e);
    }
    int overlaps = 0;
    for (List<RequestEvent> mine : byWorker.values()) {
      mine.sort(Comparator.comparingLong(RequestEvent::sentNanos));
      for (int i = 1; i < mine.size(); i++) {
        if (mine.get(i).sentNanos() < mine.get(i - 1).completedNanos()) {
          overlaps++;
        }
      }
    }
    return overlaps;
  }
}
