package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.speechscale.capacity.Rung;
import org.jspecify.annotations.Nullable;

/**
 * One rung of a qmax ladder as recorded. Boxed fields are {@code null} when not measured; {@code
 * meets_slo} is derived and recomputed on read.
 *
 * @param runIndex which pass of the ladder
 * @param stepIndex position within the run
 * @param concurrency nominal concurrency N (workers, each with one request outstanding)
 * @param completed requests that ended inside the window
 * @param ok successful completions
 * @param rejected 503 rejections
 * @param achievedRps ok completions per second over the window
 * @param concurrencyMean client mean in-flight over the window
 * @param ttfabP50Ms p50 time to first audio byte (successful requests, linear interpolation)
 * @param ttfabP95Ms p95 TTFAB, {@code null} when nothing completed
 * @param ttfabP99Ms p99 TTFAB
 * @param latencyMeanMs mean full-response latency
 * @param latencyP95Ms p95 full-response latency
 * @param serverConcurrencyPeak ConcurrentRequestsPerModel Maximum over the window
 * @param serverConcurrencyMean ConcurrentRequestsPerModel Average over the window
 * @param usable whether the step is trusted
 * @param unusableReason why not
 * @param meetsSlo usable and p95 TTFAB within the SLO (derived)
 * @param ttfabHistogram TTFAB of successful requests, microseconds, base64 compressed HdrHistogram
 * @param latencyHistogram full-response latency, microseconds, same encoding (extension)
 * @param chars characters synthesised by ok requests (extension)
 * @param ttfabDriftMs change of TTFAB across the window (extension; settledness evidence)
 * @param breakdown the server's queue wait and engine first chunk, and audio per request (additive;
 *     {@code null} in older artifacts)
 * @param stability the consecutive windows the rung was measured in until they agreed (additive;
 *     {@code null} in older artifacts and when one window was asked for)
 */
public record QmaxStep(
    Integer runIndex,
    Integer stepIndex,
    int concurrency,
    Long completed,
    Long ok,
    Long rejected,
    Double achievedRps,
    Double concurrencyMean,
    @Nullable Double ttfabP50Ms,
    @Nullable Double ttfabP95Ms,
    @Nullable Double ttfabP99Ms,
    @Nullable Double latencyMeanMs,
    @Nullable Double latencyP95Ms,
    @Nullable Double serverConcurrencyPeak,
    @Nullable Double serverConcurrencyMean,
    Boolean usable,
    @Nullable String unusableReason,
    Boolean meetsSlo,
    @Nullable String ttfabHistogram,
    @Nullable String latencyHistogram,
    Long chars,
    @Nullable Double ttfabDriftMs,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable StepBreakdown breakdown,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable RungStability stability) {

  /** Absent means usable unless a reason says otherwise. */
  public boolean isUsable() {
    return usable != null ? usable : unusableReason == null;
  }

  public int run() {
    return runIndex == null ? 0 : runIndex;
  }

  /** The planner's view of this step. */
  public Rung toRung() {
    return new Rung(
        run(),
        stepIndex == null ? 0 : stepIndex,
        concurrency,
        ok == null ? 0 : ok,
        rejected == null ? 0 : rejected,
        achievedRps,
        concurrencyMean,
        ttfabP95Ms == null ? Double.NaN : ttfabP95Ms,
        latencyMeanMs,
        latencyP95Ms,
        serverConcurrencyPeak,
        serverConcurrencyMean,
        isUsable(),
        unusableReason,
        chars);
  }

  /** This step with its derived field recomputed against {@code sloMs}. */
  QmaxStep withDerived(double sloMs) {
    return new QmaxStep(
        run(),
        stepIndex,
        concurrency,
        completed,
        ok,
        rejected,
        achievedRps,
        concurrencyMean,
        ttfabP50Ms,
        ttfabP95Ms,
        ttfabP99Ms,
        latencyMeanMs,
        latencyP95Ms,
        serverConcurrencyPeak,
        serverConcurrencyMean,
        isUsable(),
        unusableReason,
        toRung().meetsSlo(sloMs),
        ttfabHistogram,
        latencyHistogram,
        chars,
        ttfabDriftMs,
        breakdown,
        stability);
  }
}
