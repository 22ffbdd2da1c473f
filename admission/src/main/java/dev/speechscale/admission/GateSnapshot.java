package dev.speechscale.admission;

/**
 * A consistent reading of a gate's counters.
 *
 * @param inFlight permits open: queued + executing + still streaming
 * @param queued permits waiting for an execution slot
 * @param executing permits holding an execution slot
 * @param maxInFlight the bound (0 = none)
 * @param executionSlots how many may execute at once
 * @param admittedTotal permits ever granted
 * @param saturatedTotal admissions refused because the bound was reached
 * @param shedTotal queued requests shed before they started
 * @param firstByteEstimateNanos the current start-to-first-byte estimate used for shedding
 */
public record GateSnapshot(
    int inFlight,
    int queued,
    int executing,
    int maxInFlight,
    int executionSlots,
    long admittedTotal,
    long saturatedTotal,
    long shedTotal,
    long firstByteEstimateNanos) {

  /** Requests whose synthesis ended but whose audio is still being written. */
  public int streaming() {
    return inFlight - queued - executing;
  }
}
