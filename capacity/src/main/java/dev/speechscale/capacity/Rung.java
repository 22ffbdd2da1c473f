package dev.speechscale.capacity;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One measured step of a closed-loop ladder: N workers, each with one request outstanding, held at
 * a nominal concurrency and measured over a trailing window.
 *
 * <p>Boxed fields are {@code null} when the step did not measure them (a hand-written artifact, or
 * a platform without server metrics).
 *
 * @param runIndex which pass of the ladder (0-based)
 * @param stepIndex position within the run
 * @param concurrency the nominal concurrency N
 * @param ok successful completions in the window
 * @param rejected completions refused by the server (503)
 * @param achievedRps ok completions per second in the window
 * @param concurrencyMean the client's mean in-flight requests over the window
 * @param ttfabP95Ms p95 time to first audio byte over successful requests
 * @param latencyMeanMs mean full-response latency
 * @param latencyP95Ms p95 full-response latency
 * @param serverConcurrencyPeak the deployed metric's Maximum over the window (server units)
 * @param serverConcurrencyMean the deployed metric's Average over the window (server units)
 * @param usable whether the step can be trusted (capacity unchanged, settled, not client-bound...)
 * @param unusableReason why not, or {@code null}
 * @param chars characters synthesised by the ok requests, or {@code null}
 */
public record Rung(
    int runIndex,
    int stepIndex,
    int concurrency,
    long ok,
    long rejected,
    @Nullable Double achievedRps,
    @Nullable Double concurrencyMean,
    double ttfabP95Ms,
    @Nullable Double latencyMeanMs,
    @Nullable Double latencyP95Ms,
    @Nullable Double serverConcurrencyPeak,
    @Nullable Double serverConcurrencyMean,
    boolean usable,
    @Nullable String unusableReason,
    @Nullable Long chars) {

  public Rung {
    if (concurrency < 1) {
      throw new CapacityException(
          "step concurrency (" + concurrency + ") must be at least 1 (run " + runIndex + ")");
    }
    if (usable && !(ttfabP95Ms >= 0)) {
      throw new CapacityException(
          "usable step at concurrency " + concurrency + " has no p95 TTFAB (" + ttfabP95Ms + ")");
    }
  }

  /** Usable and inside the SLO. */
  public boolean meetsSlo(double sloMs) {
    return usable && ttfabP95Ms <= sloMs;
  }

  /** Usable and over the SLO: the only kind of rung that brackets Q_max from above. */
  public boolean breachesSlo(double sloMs) {
    return usable && ttfabP95Ms > sloMs;
  }

  /** The client-side concurrency actually held, falling back to the nominal one. */
  public double heldConcurrency() {
    return Objects.requireNonNullElse(concurrencyMean, (double) concurrency);
  }
}
