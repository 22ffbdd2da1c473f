package dev.speechscale.capacity;

import java.util.OptionalDouble;
import org.jspecify.annotations.Nullable;

/**
 * Every intermediate number of a plan, handed to {@link Findings} to judge and explain: {@link
 * Scalable} when a rung met the SLO (Q_max ≥ 1), {@link Unscalable} when none did, so a finding
 * that needs a threshold cannot read one from a plan that has none.
 *
 * <p>A derivation is grouped by the planner's stages, and where a stage's result is a section of
 * the {@link Plan} it holds that section itself ({@link Plan.Timing}, {@link Plan.QMax}, {@link
 * Plan.Thresholds}, {@link Plan.Fleet}), so the plan is handed the very numbers the findings
 * judged. What only the findings need (the throughput curve's readings, the surge simulation, the
 * fleet at Q_max) sits in the sections below.
 */
sealed interface Derivation permits Derivation.Scalable, Derivation.Unscalable {
  Measurement m();

  ScaleOutTime t();

  Scenario s();

  /** The times, which do not depend on Q_max: W_max, the cooldowns, the request deadline, T. */
  Plan.Timing timing();

  /**
   * No rung met the SLO: no thresholds, and no fleet beyond the scenario's floor ({@code
   * s().minFloor()}, which is both the fleet's floor and its ceiling: nothing to scale to).
   */
  record Unscalable(Measurement m, ScaleOutTime t, Scenario s, Plan.Timing timing)
      implements Derivation {}

  /**
   * A plan with Q_max ≥ 1.
   *
   * @param qMaxSection the ladder's Q_max and how it was bracketed
   * @param thresholds C_scale_max and C_scale_min, converted to the deployed metric when both units
   *     ratios were measured
   * @param throughput what the ladder's throughput curve gives at the thresholds
   * @param fleet the fleet sized for the scenario's loads, with N_safe and the published sizing
   * @param peakInstancesAtQMax instances the peak would need with each held at Q_max instead of
   *     C_scale_max (what {@code fleet_cost} compares against; not part of the plan)
   * @param surge the surge simulation at Q_max over T and what it gives at C_scale_max
   */
  record Scalable(
      Measurement m,
      ScaleOutTime t,
      Scenario s,
      Plan.Timing timing,
      Plan.QMax qMaxSection,
      Plan.Thresholds thresholds,
      Throughput throughput,
      Plan.Fleet fleet,
      int peakInstancesAtQMax,
      Surge surge)
      implements Derivation {

    public Scalable {
      if (qMaxSection.qMax() < 1) {
        throw new CapacityException(
            "a scalable derivation needs Q_max >= 1, got "
                + qMaxSection.qMax()
                + "; derive an Unscalable one when no rung met the SLO");
      }
    }

    /** The ladder's Q_max, at least 1. */
    int qMax() {
      return qMaxSection.qMax();
    }
  }

  /**
   * One instance's throughput as the ladder measured it, read where the plan needs it.
   *
   * @param measured whether the ladder measured throughput; when not, every figure below is
   *     1/S_mean (a serial engine is assumed)
   * @param atCScaleMaxPerSecond X(C_scale_max), requests per second one instance completes when
   *     held at the scale-out threshold
   * @param atQMaxPerSecond X(Q_max), the same when held at Q_max
   * @param capacityPerSecond the highest throughput one instance reached
   * @param extrapolated C_scale_max lies outside the measured curve, so X was held flat from the
   *     nearest rung
   */
  record Throughput(
      boolean measured,
      double atCScaleMaxPerSecond,
      double atQMaxPerSecond,
      double capacityPerSecond,
      boolean extrapolated) {

    /** Reads the ladder's throughput curve at {@code cScaleMax} and {@code qMax}. */
    static Throughput of(Measurement m, double cScaleMax, int qMax) {
      ThroughputCurve curve = m.ladder().throughputCurve();
      double serialPerSecond = 1.0 / m.sMeanSeconds();
      return new Throughput(
          !curve.isEmpty(),
          curve.at(cScaleMax).orElse(serialPerSecond),
          curve.at(qMax).orElse(serialPerSecond),
          curve.peak().orElse(serialPerSecond),
          curve.extrapolates(cScaleMax));
    }
  }

  /**
   * The surge simulation behind the plan's {@link Plan.Surge} section.
   *
   * @param simulation the surge simulation at Q_max over T
   * @param shedProbability the simulated shed probability at C_scale_max
   * @param recommendedCScaleMax the largest threshold whose shed probability stays within the
   *     scenario's target, or {@code null} when no threshold of 1 or more does
   */
  record Surge(
      SurgeSimulation simulation, double shedProbability, @Nullable Double recommendedCScaleMax) {

    /** Runs {@code simulation} at {@code cScaleMax} and searches for a threshold within target. */
    static Surge of(SurgeSimulation simulation, double cScaleMax, double shedTarget) {
      double shed = simulation.shedProbability(cScaleMax);
      OptionalDouble recommended = simulation.largestSafeThreshold(cScaleMax, shedTarget);
      return new Surge(
          simulation, shed, recommended.isPresent() ? recommended.getAsDouble() : null);
    }
  }
}
