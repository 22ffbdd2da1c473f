package dev.speechscale.simulator;

import java.util.Locale;
import java.util.Objects;

/**
 * What one refused request (a 503 at {@code queue_max_depth}) costs the instance that refuses it,
 * in the instance's serving capacity: {@code secondsPerRefusal} seconds of the whole instance (all
 * its slots) per refusal. Zero by default: on SageMaker the router is the service's and a refusal
 * costs the instance only its own 503; on the local platform the router, the load generator and the
 * instances share the machine's cores, and validate measures what a refusal costs there.
 *
 * <p><b>The closed form.</b> A saturated instance is never idle, so in one second the requests it
 * serves and the refusals it answers fill it: {@code served / X_sat + refused × τ = 1}, i.e. {@code
 * served = X_sat × (1 − r·τ)} ({@link #servedPerSecond}). With open-loop arrivals at {@code λ} and
 * every request it does not serve refused at the gate, {@code r = λ − served}, so {@code served =
 * X_sat × (1 − λτ) / (1 − X_sat·τ)} ({@link #servedAtOfferedRate}). The fit of
 * measurements/simulator-calibration.md, {@code served = X_sat / (1 + c·r)}, is the same law to
 * first order in {@code r·τ}; exactly, {@code c = τ / (1 − r·τ)} ({@link #hyperbolicC}), seconds
 * like τ (c·r must be a pure number).
 *
 * <p><b>From a measurement</b> ({@link #estimate}): the served throughput of a saturated instance
 * without refusals ({@code X0}) and while refusing {@code r} per second ({@code X1}) give {@code τ
 * = (1 − X1/X0) / r}.
 *
 * @param secondsPerRefusal τ, seconds of the instance's serving capacity per refusal (≥ 0)
 * @param source where τ came from, for the model's derivation
 */
public record RefusalCost(double secondsPerRefusal, String source) {
  /** Refusals cost nothing: the model as it was before refusal costs (and SageMaker's router). */
  public static final RefusalCost NONE = new RefusalCost(0, "none");

  public RefusalCost {
    Objects.requireNonNull(source, "source");
    if (!(secondsPerRefusal >= 0) || Double.isInfinite(secondsPerRefusal)) {
      throw new SimulatorException(
          String.format(
              Locale.ROOT,
              "the refusal cost (%s s per refusal, from %s) must be a finite number >= 0; give"
                  + " --refusal-cost-ms 0 for refusals that cost nothing",
              secondsPerRefusal,
              source));
    }
  }

  /** True when refusals cost nothing. */
  public boolean free() {
    return secondsPerRefusal == 0;
  }

  /** What a saturated instance serves per second while refusing {@code refusedPerSecond}. */
  public double servedPerSecond(double saturatedPerSecond, double refusedPerSecond) {
    return Math.max(0, saturatedPerSecond * (1 - refusedPerSecond * secondsPerRefusal));
  }

  /**
   * What a saturated instance serves per second under open-loop arrivals at {@code
   * offeredPerSecond} (at least {@code saturatedPerSecond}), every request it does not serve
   * refused at the gate.
   */
  public double servedAtOfferedRate(double saturatedPerSecond, double offeredPerSecond) {
    double tau = secondsPerRefusal;
    return Math.max(
        0, saturatedPerSecond * (1 - offeredPerSecond * tau) / (1 - saturatedPerSecond * tau));
  }

  /** The c of {@code served = X_sat / (1 + c·r)} at refusal rate {@code r}, in seconds. */
  public double hyperbolicC(double refusedPerSecond) {
    return secondsPerRefusal / (1 - refusedPerSecond * secondsPerRefusal);
  }

  /**
   * What one measurement says a refusal costs.
   *
   * @param secondsPerRefusal τ = (1 − X1/X0) / r: the instance's seconds per refusal (negative when
   *     the instance served more while refusing: noise larger than the cost)
   * @param servedRequestsPerRefusal τ × X0 = (X0 − X1) / r: served requests' worth of capacity per
   *     refusal, a pure number
   * @param hyperbolicCSeconds (X0/X1 − 1) / r: the c of {@code X1 = X0 / (1 + c·r)}, seconds
   */
  public record Estimate(
      double secondsPerRefusal, double servedRequestsPerRefusal, double hyperbolicCSeconds) {}

  /**
   * τ from a saturated instance's served throughput without refusals and while refusing.
   *
   * @param servedWithoutPerSecond X0, requests served per second with no refusals
   * @param servedWhilePerSecond X1, served per second while refusing
   * @param refusedPerSecond r, refusals per second meanwhile
   * @throws SimulatorException when X0 is not positive, X1 is negative or r is not positive (no
   *     refusals say nothing about their cost)
   */
  public static Estimate estimate(
      double servedWithoutPerSecond, double servedWhilePerSecond, double refusedPerSecond) {
    if (!(servedWithoutPerSecond > 0) || Double.isInfinite(servedWithoutPerSecond)) {
      throw new SimulatorException(
          "served throughput without refusals ("
              + servedWithoutPerSecond
              + " req/s) must be finite and positive: the instance served nothing to compare with");
    }
    if (!(servedWhilePerSecond >= 0) || Double.isInfinite(servedWhilePerSecond)) {
      throw new SimulatorException(
          "served throughput while refusing (" + servedWhilePerSecond + " req/s) must be >= 0");
    }
    if (!(refusedPerSecond > 0) || Double.isInfinite(refusedPerSecond)) {
      throw new SimulatorException(
          "refusal rate ("
              + refusedPerSecond
              + "/s) must be finite and positive: without refusals their cost cannot be measured;"
              + " drive the instance past queue_max_depth");
    }
    double lost = servedWithoutPerSecond - servedWhilePerSecond;
    return new Estimate(
        lost / servedWithoutPerSecond / refusedPerSecond,
        lost / refusedPerSecond,
        servedWhilePerSecond == 0
            ? Double.POSITIVE_INFINITY
            : (servedWithoutPerSecond / servedWhilePerSecond - 1) / refusedPerSecond);
  }

  /**
   * One measurement of τ with its uncertainty, for {@link #pool}.
   *
   * @param secondsPerRefusal τ
   * @param uncertaintySeconds its ± (positive)
   */
  public record Measured(double secondsPerRefusal, double uncertaintySeconds) {
    public Measured {
      if (!(uncertaintySeconds > 0) || Double.isInfinite(uncertaintySeconds)) {
        throw new SimulatorException(
            "a refusal cost's uncertainty ("
                + uncertaintySeconds
                + " s) must be finite and positive to weigh it");
      }
      if (Double.isNaN(secondsPerRefusal) || Double.isInfinite(secondsPerRefusal)) {
        throw new SimulatorException(
            "a refusal cost (" + secondsPerRefusal + " s) must be a finite number");
      }
    }
  }

  /**
   * Several measurements of one τ as one: the inverse-variance weighted mean, {@code Σ(τᵢ/uᵢ²) /
   * Σ(1/uᵢ²)}, with uncertainty {@code 1/√Σ(1/uᵢ²)}. A noisy run (large u) counts for little, so
   * figures from runs that did not resolve can still be pooled with those that did.
   *
   * @throws SimulatorException with no measurements
   */
  public static Measured pool(java.util.List<Measured> measurements) {
    if (measurements.isEmpty()) {
      throw new SimulatorException("no refusal-cost measurements to pool");
    }
    double weights = 0;
    double weighted = 0;
    for (Measured m : measurements) {
      double w = 1 / (m.uncertaintySeconds() * m.uncertaintySeconds());
      weights += w;
      weighted += w * m.secondsPerRefusal();
    }
    return new Measured(weighted / weights, 1 / Math.sqrt(weights));
  }
}
