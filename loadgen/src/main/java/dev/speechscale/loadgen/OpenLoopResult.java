package dev.speechscale.loadgen;

import dev.speechscale.platform.Invocation.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * What an open-loop run measured. Latency and TTFAB are from each request's <em>intended</em> send
 * time, so a client that fell behind its schedule, or a server queue, cannot hide (coordinated
 * omission); requests are attributed to the phase of their intended time.
 *
 * @param phases one summary per phase
 * @param events every request sent, in order of intended time
 * @param stopped {@link OpenLoopDriver#stop()} ended the schedule early
 */
public record OpenLoopResult(List<PhaseResult> phases, List<RequestEvent> events, boolean stopped) {
  public OpenLoopResult {
    phases = List.copyOf(phases);
    events = List.copyOf(events);
  }

  /** Arrivals dropped at the in-flight bound, all phases. */
  public long dropped() {
    return phases.stream().mapToLong(PhaseResult::dropped).sum();
  }

  /** Requests sent later than the late threshold, all phases. */
  public long late() {
    return phases.stream().mapToLong(PhaseResult::late).sum();
  }

  /**
   * One phase.
   *
   * @param index position in the schedule
   * @param name its label
   * @param ratePerSecond offered rate
   * @param duration its length
   * @param intended arrivals scheduled
   * @param sent arrivals sent
   * @param dropped arrivals dropped because {@code maxInFlight} were outstanding
   * @param late sent later than the late threshold
   * @param maxSendLagMs the worst send lag
   * @param ok successful requests
   * @param rejected refusals (503/408/429)
   * @param outcomes sent requests by outcome
   * @param achievedRps ok requests per second of phase
   * @param ttfabP50Ms p50 TTFAB from the intended time, successful requests, or {@code null}
   * @param ttfabP95Ms p95 TTFAB
   * @param ttfabP99Ms p99 TTFAB
   * @param latencyP50Ms p50 full latency from the intended time
   * @param latencyP95Ms p95 latency
   * @param latencyP99Ms p99 latency
   * @param ttfabHistogram TTFAB, microseconds
   * @param latencyHistogram latency, microseconds
   * @param sendLagHistogram actual minus intended send time, microseconds
   */
  public record PhaseResult(
      int index,
      String name,
      double ratePerSecond,
      Duration duration,
      long intended,
      long sent,
      long dropped,
      long late,
      double maxSendLagMs,
      long ok,
      long rejected,
      Map<Outcome, Long> outcomes,
      double achievedRps,
      @Nullable Double ttfabP50Ms,
      @Nullable Double ttfabP95Ms,
      @Nullable Double ttfabP99Ms,
      @Nullable Double latencyP50Ms,
      @Nullable Double latencyP95Ms,
      @Nullable Double latencyP99Ms,
      Histogram ttfabHistogram,
      Histogram latencyHistogram,
      Histogram sendLagHistogram) {
    public PhaseResult {
      outcomes = Map.copyOf(outcomes);
      ttfabHistogram = ttfabHistogram.copy();
      latencyHistogram = latencyHistogram.copy();
      sendLagHistogram = sendLagHistogram.copy();
    }

    @Override
    public Histogram ttfabHistogram() {
      return ttfabHistogram.copy();
    }

    @Override
    public Histogram latencyHistogram() {
      return latencyHistogram.copy();
    }

    @Override
    public Histogram sendLagHistogram() {
      return sendLagHistogram.copy();
    }
  }
}
