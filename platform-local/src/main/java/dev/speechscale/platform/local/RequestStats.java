package dev.speechscale.platform.local;

import java.util.ArrayList;
import java.util.List;

/** Per-second request counts the router accumulates and the sampler drains into samples. */
final class RequestStats {
  private long invocations;
  private long errors4xx;
  private long errors5xx;
  private List<Double> firstChunkMicros = new ArrayList<>();

  /**
   * What accumulated since the last drain.
   *
   * @param invocations requests routed
   * @param errors4xx answered 4xx
   * @param errors5xx answered 5xx
   * @param firstChunkMicros first-chunk latencies
   */
  record Drained(long invocations, long errors4xx, long errors5xx, double[] firstChunkMicros) {}

  synchronized void invocation() {
    invocations++;
  }

  synchronized void status(int status) {
    if (status >= 500) {
      errors5xx++;
    } else if (status >= 400) {
      errors4xx++;
    }
  }

  synchronized void firstChunk(long micros) {
    firstChunkMicros.add((double) micros);
  }

  synchronized Drained drain() {
    Drained d =
        new Drained(
            invocations,
            errors4xx,
            errors5xx,
            firstChunkMicros.stream().mapToDouble(Double::doubleValue).toArray());
    invocations = 0;
    errors4xx = 0;
    errors5xx = 0;
    firstChunkMicros = new ArrayList<>();
    return d;
  }
}
