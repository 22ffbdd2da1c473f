package dev.speechscale.chain;

import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How fast the one instance served the replay's warm-up: the successful requests that ended in its
 * second half per second (the first half is left out, as a freshly deployed instance serves it
 * JIT-cold). A closed loop at N above the engine's slots keeps the instance saturated, so this is
 * its X(N) at the moment the trace starts, to hold against the ladder's X(N) measured minutes
 * before: on this shared machine the two differed by up to 18 % (the nine-replay table in
 * measurements/simulator-calibration.md), and the shed moves about half a point per 1 % of X.
 *
 * @param concurrency the warm-up's closed-loop N
 * @param requests successful requests that ended in the second half
 * @param seconds the second half's length
 * @param servedPerSecond {@code requests / seconds}
 * @param servedTotal successful requests of the whole warm-up: how far a freshly deployed instance
 *     has come along its cold start when the trace begins
 */
public record WarmupSpeed(
    int concurrency, long requests, double seconds, double servedPerSecond, long servedTotal) {

  /** Fewer requests than this in the second half tell too little (±15 % or worse). */
  static final long MIN_REQUESTS = 40;

  /** Whether there are enough requests to hold the figure against the ladder. */
  public boolean enough() {
    return requests >= MIN_REQUESTS;
  }

  /** Keeps every successful warm-up request's end; thread-safe. */
  static final class Recorder implements RequestListener {
    private final List<Long> ends = new ArrayList<>();

    @Override
    public synchronized void completed(RequestEvent e) {
      if (e.ok()) {
        ends.add(e.completedNanos());
      }
    }

    /**
     * The speed over the second half of {@code [startNanos, endNanos)}, or null for a warm-up too
     * short to have one.
     */
    synchronized @Nullable WarmupSpeed speed(int concurrency, long startNanos, long endNanos) {
      if (endNanos <= startNanos) {
        return null;
      }
      long mid = startNanos + (endNanos - startNanos) / 2;
      long n = ends.stream().filter(t -> t >= mid && t < endNanos).count();
      double seconds = (endNanos - mid) / 1e9;
      long total = ends.stream().filter(t -> t < endNanos).count();
      return new WarmupSpeed(concurrency, n, seconds, n / seconds, total);
    }
  }
}
