package dev.speechscale.loadgen;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * An open-loop arrival schedule: phases of constant offered rate (e.g. a baseline, then a k×
 * surge), arrivals evenly spaced or Poisson.
 *
 * @param phases the phases, back to back
 * @param arrivals how arrivals are spaced within a phase
 * @param maxInFlight the most requests outstanding at once; an arrival that finds the bound reached
 *     is dropped and counted (never queued inside the client, never silently skipped)
 * @param seed seeds the Poisson gaps (SplitMix64), so a schedule is reproducible
 * @param lateThreshold a request sent later than this after its intended time counts as late
 */
public record OpenLoopSpec(
    List<Phase> phases, Arrivals arrivals, int maxInFlight, long seed, Duration lateThreshold) {

  public OpenLoopSpec {
    Objects.requireNonNull(arrivals, "arrivals");
    Objects.requireNonNull(lateThreshold, "lateThreshold");
    phases = List.copyOf(phases);
    if (phases.isEmpty()) {
      throw new LoadgenException("the open-loop schedule has no phases; give at least one");
    }
    if (maxInFlight < 1) {
      throw new LoadgenException(
          "maxInFlight ("
              + maxInFlight
              + ") must be at least 1; it bounds the client, set it well above rate x latency");
    }
    if (lateThreshold.isNegative()) {
      throw new LoadgenException("lateThreshold (" + lateThreshold + ") must not be negative");
    }
  }

  /** One rate held for a duration. */
  public static OpenLoopSpec constant(
      double ratePerSecond, Duration duration, Arrivals arrivals, int maxInFlight, long seed) {
    return new OpenLoopSpec(
        List.of(new Phase("steady", ratePerSecond, duration)),
        arrivals,
        maxInFlight,
        seed,
        Duration.ofMillis(5));
  }

  /** How arrivals are spaced. */
  public enum Arrivals {
    /** Exactly 1/rate apart, the first at the phase start. */
    CONSTANT,
    /** Exponential gaps of mean 1/rate (a Poisson process). */
    POISSON
  }

  /**
   * A stretch of constant offered rate.
   *
   * @param name a label for reports ({@code baseline}, {@code surge})
   * @param ratePerSecond offered arrivals per second (0 = idle)
   * @param duration how long
   */
  public record Phase(String name, double ratePerSecond, Duration duration) {
    public Phase {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(duration, "duration");
      if (!(ratePerSecond >= 0) || Double.isInfinite(ratePerSecond)) {
        throw new LoadgenException(
            "phase " + name + ": rate (" + ratePerSecond + "/s) must be a finite number >= 0");
      }
      if (!duration.isPositive()) {
        throw new LoadgenException(
            "phase " + name + ": duration (" + duration + ") must be positive");
      }
    }
  }
}
