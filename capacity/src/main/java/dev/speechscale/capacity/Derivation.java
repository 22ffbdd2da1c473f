package dev.speechscale.capacity;

import org.jspecify.annotations.Nullable;

/**
 * Every intermediate number of a plan, handed to {@link Findings} to judge and explain: {@link
 * Scalable} when a rung met the SLO (Q_max ≥ 1), {@link Unscalable} when none did, so a finding
 * that needs a threshold cannot read one from a plan that has none.
 */
sealed interface Derivation permits Derivation.Scalable, Derivation.Unscalable {
  Measurement m();

  ScaleOutTime t();

  Scenario s();

  /** The SLO's wait budget: the SLO minus S_p95, not below zero. */
  double wMaxSeconds();

  Cooldowns cooldowns();

  int minInstances();

  int maxInstances();

  /**
   * No rung met the SLO: no thresholds, no fleet sizing beyond the scenario's floor.
   *
   * @param minInstances the scenario's floor
   * @param maxInstances the same floor: nothing to scale to
   */
  record Unscalable(
      Measurement m,
      ScaleOutTime t,
      Scenario s,
      double wMaxSeconds,
      Cooldowns cooldowns,
      int minInstances,
      int maxInstances)
      implements Derivation {

    static Unscalable of(
        Measurement m, ScaleOutTime t, Scenario s, double wMaxSeconds, Cooldowns cooldowns) {
      return new Unscalable(m, t, s, wMaxSeconds, cooldowns, s.minFloor(), s.minFloor());
    }
  }

  /**
   * A plan with Q_max ≥ 1.
   *
   * @param qMax the ladder's Q_max
   * @param cScaleMax the scale-out threshold in client units
   * @param cScaleMin the scale-in threshold in client units
   * @param minSafe the smallest floor that keeps scale-in stable, or {@code null} when none is
   * @param ratioMax ConcurrentRequestsPerModel Maximum over client mean near C_scale_max, or {@code
   *     null} when the ladder measured no server concurrency there
   * @param ratioAverage the Average's ratio near C_scale_min, or {@code null}
   * @param throughputMeasured whether the ladder measured throughput (else 1/S_mean is assumed)
   * @param throughput X at C_scale_max, requests per second per instance
   * @param capacityPerSecond the highest throughput one instance reached
   * @param throughputExtrapolated C_scale_max lies beyond the measured curve
   * @param troughInstances instances the trough needs, 0 without a trough
   * @param peakInstances instances the peak needs at C_scale_max
   * @param peakInstancesAtQMax instances the peak would need at Q_max
   * @param naiveMax the published tool's ⌈λ·S/C_scale_max⌉, or {@code null} for a peak not given as
   *     a request rate
   * @param simulation the surge simulation at Q_max over T
   * @param shedProbability the simulated shed probability at C_scale_max
   * @param recommended the largest C_scale_max within the shed target, or {@code null} when none is
   */
  record Scalable(
      Measurement m,
      ScaleOutTime t,
      Scenario s,
      double wMaxSeconds,
      Cooldowns cooldowns,
      int minInstances,
      int maxInstances,
      int qMax,
      double cScaleMax,
      double cScaleMin,
      @Nullable Integer minSafe,
      @Nullable UnitsRatio ratioMax,
      @Nullable UnitsRatio ratioAverage,
      boolean throughputMeasured,
      double throughput,
      double capacityPerSecond,
      boolean throughputExtrapolated,
      int troughInstances,
      int peakInstances,
      int peakInstancesAtQMax,
      @Nullable Integer naiveMax,
      SurgeSimulation simulation,
      double shedProbability,
      @Nullable Double recommended)
      implements Derivation {

    /** C_scale_max in the deployed metric's units, or {@code null} without both ratios. */
    @Nullable Double scalingTargetValue() {
      return ratioMax == null || ratioAverage == null
          ? null
          : Planner.deployable(cScaleMax * ratioMax.ratio());
    }

    /** C_scale_min in the deployed metric's units, or {@code null} without both ratios. */
    @Nullable Double scaleInThreshold() {
      return ratioMax == null || ratioAverage == null
          ? null
          : Planner.deployable(cScaleMin * ratioAverage.ratio());
    }
  }
}
