package dev.speechscale.admission;

import java.time.Duration;

/**
 * How a gate is bounded.
 *
 * @param maxInFlight requests in flight (queued + executing + still streaming) before new ones are
 *     refused; 0 means no bound (the {@code MAX_QUEUE_DEPTH=0} setting)
 * @param executionSlots requests that may execute (hold the engine) at once; the rest queue FIFO
 * @param initialFirstByteEstimate the start-to-first-byte estimate used for shedding until the
 *     first real observation arrives
 */
public record GateConfig(int maxInFlight, int executionSlots, Duration initialFirstByteEstimate) {

  public GateConfig {
    if (maxInFlight < 0) {
      throw new IllegalArgumentException(
          "maxInFlight (" + maxInFlight + ") must be 0 (no bound) or positive; use 0 to disable");
    }
    if (executionSlots < 1) {
      throw new IllegalArgumentException(
          "executionSlots (" + executionSlots + ") must be at least 1; the engine needs a slot");
    }
    if (initialFirstByteEstimate == null || initialFirstByteEstimate.isNegative()) {
      throw new IllegalArgumentException(
          "initialFirstByteEstimate ("
              + initialFirstByteEstimate
              + ") must be zero or positive; pass Duration.ZERO when unknown");
    }
  }

  /** A gate bounding in-flight requests at {@code maxInFlight} with {@code slots} executors. */
  public static GateConfig of(int maxInFlight, int slots) {
    return new GateConfig(maxInFlight, slots, Duration.ZERO);
  }

  /** True when {@link #maxInFlight} is 0: every request is admitted. */
  public boolean unbounded() {
    return maxInFlight == 0;
  }
}
