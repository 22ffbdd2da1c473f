package dev.speechscale.capacity;

import java.util.Objects;

/**
 * Everything the qmax measurement contributes to a plan.
 *
 * @param ladder the analysed steps
 * @param sMeanSeconds uncontended mean service time (full response)
 * @param sP95Seconds uncontended p95 service time
 * @param serviceTimes the service-time distribution the surge simulation draws from
 * @param frozen autoscaling was suspended and capacity pinned while measuring
 * @param unboundedQueue the container's own queue bound was off, so Q_max is the instance's limit
 * @param declaredQMax the Q_max the artifact states, or {@code null}; checked against the steps
 */
public record Measurement(
    Ladder ladder,
    double sMeanSeconds,
    double sP95Seconds,
    ServiceTimeDistribution serviceTimes,
    boolean frozen,
    boolean unboundedQueue,
    Integer declaredQMax) {

  public Measurement {
    Objects.requireNonNull(ladder, "ladder");
    Objects.requireNonNull(serviceTimes, "serviceTimes");
    if (!(sMeanSeconds > 0) || !(sP95Seconds > 0)) {
      throw new CapacityException(
          "S_mean ("
              + sMeanSeconds
              + " s) and S_p95 ("
              + sP95Seconds
              + " s) must be positive; measure the lowest rung's full-response latency");
    }
  }
}
