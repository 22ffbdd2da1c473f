package dev.speechscale.simulator;

import dev.speechscale.capacity.Ladder;
import dev.speechscale.capacity.Measurement;
import dev.speechscale.capacity.ServiceTimeDistribution;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * One instance of the fleet, as measured.
 *
 * <p><b>Derivation from a qmax measurement</b> ({@link #fromMeasurement}). The ladder gives the
 * uncontended full-response time distribution S (at its lowest usable rung) and the throughput
 * curve; X_sat is the curve's highest point, what one instance completes per second once it is
 * saturated. By Little's law an engine that completes X_sat requests per second, each held for
 * S_mean, has X_sat·S_mean requests in service at once, so:
 *
 * <ul>
 *   <li>{@code slots = max(1, round(X_sat · S_mean))} requests execute at once (Kokoro-82M: 17.9 ×
 *       0.0613 = 1.10 → 1, a serial engine); the rest wait FIFO;
 *   <li>a request occupies its slot for {@code scale · S}, with {@code scale = slots / (X_sat ·
 *       S_mean)}, so {@code slots / occupancy_mean = X_sat} exactly: the model saturates where the
 *       ladder did (Kokoro: 55.9 ms of engine time per request where the client saw 61.3 ms at N=1,
 *       the difference being per-request overhead that overlaps the next request);
 *   <li>its first audio byte comes {@code r · S} after it starts, {@code r = min(1, p95 TTFAB / p95
 *       latency)} at the lowest rung, so a request that never waits has exactly the ladder's c=1
 *       first-byte distribution (same draw u for S, occupancy and first byte);
 *   <li>it stays in flight (the number the platform samples) until {@code max(scale·S, S)} after it
 *       starts: the full response, streaming included.
 * </ul>
 *
 * The same draw feeding all three keeps one request's numbers consistent with each other.
 *
 * @param slots requests that execute at once
 * @param responseTimes the uncontended full-response time S
 * @param occupancyScale engine occupancy per second of S
 * @param firstByteRatio time to first byte per second of S
 * @param queueMaxDepth requests in flight per instance before the gate answers 503 (0: no gate)
 * @param requestDeadline first byte must come within this of arrival, else the request is shed
 * @param startupDelay from the scaling decision (desired_set) to in service
 * @param derivation how the numbers were derived, for the artifact
 */
public record InstanceModel(
    int slots,
    ServiceTimeDistribution responseTimes,
    double occupancyScale,
    double firstByteRatio,
    int queueMaxDepth,
    Duration requestDeadline,
    Duration startupDelay,
    String derivation) {

  public InstanceModel {
    Objects.requireNonNull(responseTimes, "responseTimes");
    Objects.requireNonNull(requestDeadline, "requestDeadline");
    Objects.requireNonNull(startupDelay, "startupDelay");
    if (slots < 1) {
      throw new SimulatorException("slots (" + slots + ") must be at least 1");
    }
    if (!(occupancyScale > 0) || Double.isInfinite(occupancyScale)) {
      throw new SimulatorException(
          "occupancy scale (" + occupancyScale + ") must be finite and positive");
    }
    if (!(firstByteRatio > 0 && firstByteRatio <= 1)) {
      throw new SimulatorException(
          "first-byte ratio (" + firstByteRatio + ") must be in (0, 1]: TTFAB <= latency");
    }
    if (queueMaxDepth < 0) {
      throw new SimulatorException(
          "queue_max_depth (" + queueMaxDepth + ") must be 0 (no gate) or positive");
    }
    if (requestDeadline.isNegative() || requestDeadline.isZero()) {
      throw new SimulatorException(
          "request deadline (" + requestDeadline + ") must be positive (MAX_REQUEST_AGE_S)");
    }
    if (startupDelay.isNegative()) {
      throw new SimulatorException("start-up delay (" + startupDelay + ") must be at least 0");
    }
  }

  /**
   * The instance a qmax measurement describes (see the class comment for the derivation).
   *
   * @param measurement the ladder and its service times
   * @param queueMaxDepth the plan's queue bound (0: no gate)
   * @param requestDeadline the server's MAX_REQUEST_AGE_S
   * @param startupDelay desired_set → in_service from the ttotal artifact
   */
  public static InstanceModel fromMeasurement(
      Measurement measurement, int queueMaxDepth, Duration requestDeadline, Duration startupDelay) {
    Ladder ladder = measurement.ladder();
    double saturated =
        ladder
            .throughputCurve()
            .peak()
            .orElseThrow(() ->
                new SimulatorException(
                    "the qmax artifact has no usable rung with achieved_rps; the simulator"
                        + " needs the measured throughput curve (re-run tts-bench qmax)"));
    ServiceTimeDistribution s = measurement.serviceTimes();
    double sMean = s.meanSeconds();
    int slots = (int) Math.max(1, Math.round(saturated * sMean));
    double scale = slots / (saturated * sMean);
    Ladder.ServiceTime st =
        ladder
            .serviceTime()
            .orElseThrow(() ->
                new SimulatorException(
                    "the qmax artifact's lowest usable rung has no latency_mean_ms and"
                        + " latency_p95_ms; the simulator needs them for S"));
    double ratio = Math.min(1.0, st.ttfabP95Ms() / 1000.0 / st.p95Seconds());
    String derivation =
        String.format(
            Locale.ROOT,
            "X_sat %.4g req/s (highest measured throughput), S_mean %.4g s (%s):"
                + " slots = max(1, round(%.4g x %.4g)) = %d; engine occupancy = %.4f x S"
                + " (mean %.4g s, slots/mean = X_sat); first byte = %.4f x S (p95 TTFAB %.4g ms"
                + " / p95 latency %.4g ms at concurrency %d)",
            saturated,
            sMean,
            s.origin(),
            saturated,
            sMean,
            slots,
            scale,
            scale * sMean,
            ratio,
            st.ttfabP95Ms(),
            st.p95Seconds() * 1000,
            st.atConcurrency());
    return new InstanceModel(
        slots, s, scale, ratio, queueMaxDepth, requestDeadline, startupDelay, derivation);
  }

  /** Mean engine occupancy per request, seconds. */
  public double occupancyMeanSeconds() {
    return occupancyScale * responseTimes.meanSeconds();
  }

  /** What one instance completes per second when saturated: slots / occupancy mean. */
  public double saturatedPerSecond() {
    return slots / occupancyMeanSeconds();
  }
}
