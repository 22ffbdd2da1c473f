package dev.speechscale.capacity;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the operator chooses: the SLO, the surge ratio, the stated loads and the guard rails.
 *
 * @param sloMs p95 TTFAB promise, queueing included
 * @param surgeRatio k in [1, 1.5)
 * @param peak the peak load the fleet must carry
 * @param trough the trough load, or {@code null} to size the floor from {@code minFloor} alone
 * @param minFloor the fewest instances to keep, at least 1
 * @param shedTarget the surge shed probability a recommended threshold must stay under
 * @param ceilingSeconds the platform's invocation ceiling (60 s on SageMaker)
 * @param trials simulated surges
 * @param seed the simulation's seed
 */
public record Scenario(
    double sloMs,
    double surgeRatio,
    Load peak,
    @Nullable Load trough,
    int minFloor,
    double shedTarget,
    double ceilingSeconds,
    int trials,
    long seed) {

  /** The published planner's line for surge_survival. */
  public static final double SURGE_WARN_LINE = 0.10;

  public Scenario {
    if (!(sloMs > 0)) {
      throw new CapacityException("SLO (" + sloMs + " ms) must be positive");
    }
    Thresholds.checkSurgeRatio(surgeRatio);
    Objects.requireNonNull(peak, "peak");
    if (trough != null && trough.getClass() != peak.getClass()) {
      throw new CapacityException(
          "trough ("
              + trough.describe()
              + ") and peak ("
              + peak.describe()
              + ") must be stated in the same unit");
    }
    if (trough != null && trough.amount() > peak.amount()) {
      throw new CapacityException(
          "trough (" + trough.describe() + ") is above peak (" + peak.describe() + ")");
    }
    if (minFloor < 1) {
      throw new CapacityException("min floor (" + minFloor + ") must be at least 1 instance");
    }
    if (!(shedTarget > 0 && shedTarget < 1)) {
      throw new CapacityException("shed target (" + shedTarget + ") must be in (0, 1)");
    }
    if (!(ceilingSeconds > 0)) {
      throw new CapacityException("invocation ceiling (" + ceilingSeconds + " s) must be positive");
    }
    if (trials < 1) {
      throw new CapacityException("trials (" + trials + ") must be at least 1");
    }
  }
}
