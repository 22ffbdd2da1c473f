package dev.speechscale.capacity;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

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
 * @param drift the ladder's reference rung re-measured late and compared with its first
 *     measurement; empty when the ladder did not re-measure (older artifacts)
 */
public record Measurement(
    Ladder ladder,
    double sMeanSeconds,
    double sP95Seconds,
    ServiceTimeDistribution serviceTimes,
    boolean frozen,
    boolean unboundedQueue,
    @Nullable Integer declaredQMax,
    List<RungDrift> drift) {

  public Measurement {
    Objects.requireNonNull(ladder, "ladder");
    drift = drift == null ? List.of() : List.copyOf(drift);
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

  /** This measurement with the ladder's drift checks. */
  public Measurement withDrift(List<RungDrift> drift) {
    return new Measurement(
        ladder,
        sMeanSeconds,
        sP95Seconds,
        serviceTimes,
        frozen,
        unboundedQueue,
        declaredQMax,
        drift);
  }
}
