package dev.speechscale.simulator;

import java.util.List;
import java.util.OptionalLong;

/**
 * What one policy did with the traffic.
 *
 * <p>Percentiles are over served requests only (a shed request has no first byte); SLO attainment
 * is over every arrival, so shedding counts against it. Instances "in service" take traffic;
 * instance-hours bill every instance from the decision that started it (desired_set) until it
 * stopped: starting, in service and draining.
 *
 * @param policy the policy's name
 * @param description the policy's numbers
 * @param arrived requests that arrived
 * @param served requests that got a first byte
 * @param shedQueueFull answered 503 at once: the instance's gate was full
 * @param shedDeadline shed because their first byte could not come within the request deadline
 * @param shedNoInstance arrived while no instance was in service
 * @param withinSlo served with TTFAB ≤ SLO
 * @param ttfabMeanMs mean TTFAB of served requests (NaN when none)
 * @param ttfabP50Ms p50 TTFAB of served requests (NaN when none)
 * @param ttfabP95Ms p95 TTFAB
 * @param ttfabP99Ms p99 TTFAB
 * @param peakInService most instances in service at once
 * @param meanInService time-average instances in service
 * @param instanceHours billed instance-hours
 * @param scaleOuts decisions that raised desired capacity
 * @param scaleIns decisions that lowered it
 * @param secondsAtMax seconds with desired capacity at the policy's maximum
 * @param minutes one row per simulated minute
 * @param events every scaling decision
 */
public record PolicyResult(
    String policy,
    String description,
    long arrived,
    long served,
    long shedQueueFull,
    long shedDeadline,
    long shedNoInstance,
    long withinSlo,
    double ttfabMeanMs,
    double ttfabP50Ms,
    double ttfabP95Ms,
    double ttfabP99Ms,
    int peakInService,
    double meanInService,
    double instanceHours,
    int scaleOuts,
    int scaleIns,
    long secondsAtMax,
    List<Minute> minutes,
    List<ScalingEvent> events) {

  public PolicyResult {
    minutes = List.copyOf(minutes);
    events = List.copyOf(events);
  }

  /** Every shed request. */
  public long shed() {
    return shedQueueFull + shedDeadline + shedNoInstance;
  }

  /** Shed requests over arrivals, 0..1 (0 with no arrivals). */
  public double shedFraction() {
    return arrived == 0 ? 0 : (double) shed() / arrived;
  }

  /** Arrivals served within the SLO, 0..1 (1 with no arrivals). */
  public double sloAttainment() {
    return arrived == 0 ? 1 : (double) withinSlo / arrived;
  }

  /**
   * One simulated minute.
   *
   * @param minute minutes since the start
   * @param arrived arrivals in the minute
   * @param served of those, served
   * @param shed of those, shed
   * @param sloMisses served with TTFAB above the SLO
   * @param ttfabP95Ms p95 TTFAB of the minute's served requests (NaN when none)
   * @param meanInService instances in service, averaged over the minute's seconds
   * @param maxInService most instances in service in the minute
   */
  public record Minute(
      long minute,
      long arrived,
      long served,
      long shed,
      long sloMisses,
      double ttfabP95Ms,
      double meanInService,
      int maxInService) {}

  /**
   * One scaling decision.
   *
   * @param decidedAtSeconds when the policy decided
   * @param from desired capacity before
   * @param to desired capacity after
   * @param cause the policy's reason
   * @param inServiceAtSeconds for a scale-out, when the last instance it started came into service
   *     (empty when a scale-in cancelled them all or the run ended first)
   */
  public record ScalingEvent(
      long decidedAtSeconds, int from, int to, String cause, OptionalLong inServiceAtSeconds) {}
}
