package dev.speechscale.capacity;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A derived scaling plan. Boxed fields are {@code null} when the plan cannot honestly emit them (no
 * measured units ratio, nothing to simulate, no throughput measured).
 *
 * @param verdict {@code ok}, {@code warn (N)} or {@code INFEASIBLE}
 * @param qMax measured Q_max (0 when no rung met the SLO)
 * @param qMaxBracketed a usable rung above Q_max breached the SLO
 * @param qMaxRefined the breaching rung is Q_max + 1
 * @param cScaleMax scale-out threshold in client units
 * @param cScaleMin scale-in threshold in client units
 * @param scalingTargetValue C_scale_max in the deployed metric's units (Maximum)
 * @param scaleInThreshold C_scale_min in the deployed metric's units (Average)
 * @param ratioMax the Maximum/client ratio used, or {@code null}
 * @param ratioAverage the Average/client ratio used, or {@code null}
 * @param minInstances the fleet floor
 * @param maxInstances the fleet ceiling
 * @param troughInstances instances the trough load needs (0 without a trough)
 * @param peakInstances instances the peak load needs
 * @param minSafeInstances N_safe, or {@code null} when no fleet size is safe
 * @param queueMaxDepth the container's admission bound (= Q_max)
 * @param scaleOutCooldownSeconds scale-out cooldown
 * @param scaleInCooldownSeconds scale-in cooldown
 * @param wMaxSeconds queueing budget, SLO − S_p95 (≥ 0)
 * @param requestDeadlineSeconds W_max + S_p95, judged against the invocation ceiling
 * @param tTotalSeconds T planned against (measured + policy lag bound)
 * @param utilizationMm1 ρ at C_scale_max as M/M/1 (parity with the published figure)
 * @param utilizationMg1 ρ at C_scale_max as M/G/1 with the measured service CV
 * @param serviceCv the service-time coefficient of variation used
 * @param shedProbability P(queue reaches Q_max within T) under a k× surge from C_scale_max
 * @param recommendedCScaleMax the largest threshold whose shed probability meets the target
 * @param throughputAtCScaleMaxPerSecond X(C_scale_max) used for sizing
 * @param naiveMaxInstances the published sizing for the peak rate, for comparison
 * @param firstChunkAlarmMs the first-chunk latency alarm threshold (p95 TTFAB at the lowest rung)
 * @param findings worst first
 */
public record Plan(
    PlanVerdict verdict,
    int qMax,
    boolean qMaxBracketed,
    boolean qMaxRefined,
    double cScaleMax,
    double cScaleMin,
    @Nullable Double scalingTargetValue,
    @Nullable Double scaleInThreshold,
    @Nullable UnitsRatio ratioMax,
    @Nullable UnitsRatio ratioAverage,
    int minInstances,
    int maxInstances,
    int troughInstances,
    int peakInstances,
    @Nullable Integer minSafeInstances,
    int queueMaxDepth,
    int scaleOutCooldownSeconds,
    int scaleInCooldownSeconds,
    double wMaxSeconds,
    double requestDeadlineSeconds,
    double tTotalSeconds,
    double utilizationMm1,
    double utilizationMg1,
    double serviceCv,
    @Nullable Double shedProbability,
    @Nullable Double recommendedCScaleMax,
    @Nullable Double throughputAtCScaleMaxPerSecond,
    @Nullable Integer naiveMaxInstances,
    @Nullable Double firstChunkAlarmMs,
    List<Finding> findings) {

  /** The flat plan every reader sees; build one with {@link #of} or {@link #unscalable}. */
  public Plan {
    findings = List.copyOf(findings);
  }

  /**
   * The ladder's Q_max as planned with.
   *
   * @param qMax measured Q_max
   * @param bracketed a usable rung above Q_max breached the SLO
   * @param refined the breaching rung is Q_max + 1
   */
  public record QMax(int qMax, boolean bracketed, boolean refined) {}

  /**
   * The thresholds in client units and, with both ratios measured, the deployed metric's.
   *
   * @param cScaleMax scale-out threshold in client units
   * @param cScaleMin scale-in threshold in client units
   * @param scalingTargetValue C_scale_max in the deployed metric's units, or {@code null}
   * @param scaleInThreshold C_scale_min in the deployed metric's units, or {@code null}
   * @param ratioMax the Maximum/client ratio used, or {@code null}
   * @param ratioAverage the Average/client ratio used, or {@code null}
   */
  public record Thresholds(
      double cScaleMax,
      double cScaleMin,
      @Nullable Double scalingTargetValue,
      @Nullable Double scaleInThreshold,
      @Nullable UnitsRatio ratioMax,
      @Nullable UnitsRatio ratioAverage) {}

  /**
   * The fleet's size.
   *
   * @param minInstances the floor
   * @param maxInstances the ceiling
   * @param troughInstances instances the trough load needs
   * @param peakInstances instances the peak load needs
   * @param minSafeInstances N_safe, or {@code null} when no fleet size is safe
   * @param naiveMaxInstances the published sizing for the peak rate, or {@code null}
   * @param queueMaxDepth the container's admission bound
   */
  public record Fleet(
      int minInstances,
      int maxInstances,
      int troughInstances,
      int peakInstances,
      @Nullable Integer minSafeInstances,
      @Nullable Integer naiveMaxInstances,
      int queueMaxDepth) {}

  /**
   * The plan's times, which do not depend on Q_max.
   *
   * @param scaleOutCooldownSeconds scale-out cooldown
   * @param scaleInCooldownSeconds scale-in cooldown
   * @param wMaxSeconds queueing budget
   * @param requestDeadlineSeconds W_max + S_p95
   * @param tTotalSeconds T planned against
   * @param firstChunkAlarmMs the first-chunk latency alarm threshold, or {@code null}
   */
  public record Timing(
      int scaleOutCooldownSeconds,
      int scaleInCooldownSeconds,
      double wMaxSeconds,
      double requestDeadlineSeconds,
      double tTotalSeconds,
      @Nullable Double firstChunkAlarmMs) {}

  /**
   * One instance at C_scale_max, and a surge from there.
   *
   * @param utilizationMm1 rho at C_scale_max as M/M/1
   * @param utilizationMg1 rho at C_scale_max as M/G/1
   * @param serviceCv the service-time coefficient of variation used
   * @param shedProbability the simulated shed probability, or {@code null}
   * @param recommendedCScaleMax the largest threshold within the shed target, or {@code null}
   * @param throughputAtCScaleMaxPerSecond X(C_scale_max), or {@code null}
   */
  public record Surge(
      double utilizationMm1,
      double utilizationMg1,
      double serviceCv,
      @Nullable Double shedProbability,
      @Nullable Double recommendedCScaleMax,
      @Nullable Double throughputAtCScaleMaxPerSecond) {}

  /** Q_max and how it was bracketed, as a section. */
  public QMax qMaxSection() {
    return new QMax(qMax, qMaxBracketed, qMaxRefined);
  }

  /** The fleet's size, as a section. */
  public Fleet fleet() {
    return new Fleet(
        minInstances,
        maxInstances,
        troughInstances,
        peakInstances,
        minSafeInstances,
        naiveMaxInstances,
        queueMaxDepth);
  }

  /** The plan's times, as a section. */
  public Timing timing() {
    return new Timing(
        scaleOutCooldownSeconds,
        scaleInCooldownSeconds,
        wMaxSeconds,
        requestDeadlineSeconds,
        tTotalSeconds,
        firstChunkAlarmMs);
  }

  /** One instance at C_scale_max and a surge from there, as a section. */
  public Surge surge() {
    return new Surge(
        utilizationMm1,
        utilizationMg1,
        serviceCv,
        shedProbability,
        recommendedCScaleMax,
        throughputAtCScaleMaxPerSecond);
  }

  /** A plan assembled from its sections. */
  public static Plan of(
      PlanVerdict verdict,
      QMax qMax,
      Thresholds thresholds,
      Fleet fleet,
      Timing timing,
      Surge surge,
      List<Finding> findings) {
    return new Plan(
        verdict,
        qMax.qMax(),
        qMax.bracketed(),
        qMax.refined(),
        thresholds.cScaleMax(),
        thresholds.cScaleMin(),
        thresholds.scalingTargetValue(),
        thresholds.scaleInThreshold(),
        thresholds.ratioMax(),
        thresholds.ratioAverage(),
        fleet.minInstances(),
        fleet.maxInstances(),
        fleet.troughInstances(),
        fleet.peakInstances(),
        fleet.minSafeInstances(),
        fleet.queueMaxDepth(),
        timing.scaleOutCooldownSeconds(),
        timing.scaleInCooldownSeconds(),
        timing.wMaxSeconds(),
        timing.requestDeadlineSeconds(),
        timing.tTotalSeconds(),
        surge.utilizationMm1(),
        surge.utilizationMg1(),
        surge.serviceCv(),
        surge.shedProbability(),
        surge.recommendedCScaleMax(),
        surge.throughputAtCScaleMaxPerSecond(),
        fleet.naiveMaxInstances(),
        timing.firstChunkAlarmMs(),
        findings);
  }

  /**
   * The plan of a ladder where no rung met the SLO: Q_max 0 and the numbers that depend on it 0 or
   * absent (a plan artifact's fields are numbers, and its INFEASIBLE verdict tells a reader to
   * ignore them); what does not depend on Q_max (the floor, the times, the service CV) is kept.
   */
  public static Plan unscalable(
      PlanVerdict verdict,
      boolean bracketed,
      boolean refined,
      int minInstances,
      int maxInstances,
      Timing timing,
      double serviceCv,
      List<Finding> findings) {
    return of(
        verdict,
        new QMax(0, bracketed, refined),
        new Thresholds(0, 0, null, null, null, null),
        new Fleet(minInstances, maxInstances, 0, 0, null, null, 0),
        timing,
        new Surge(0, 0, serviceCv, null, null, null),
        findings);
  }

  /** True when any finding is infeasible: nothing from this plan may deploy. */
  public boolean infeasible() {
    return findings.stream().anyMatch(f -> f.verdict() == Verdict.INFEASIBLE);
  }

  /** True when the plan can attach autoscaling: feasible and carrying converted thresholds. */
  public boolean scalable() {
    return !infeasible() && scalingTargetValue != null && scaleInThreshold != null;
  }

  /** The finding with this name. */
  public Finding finding(String name) {
    return findings.stream()
        .filter(f -> f.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new CapacityException("no finding named " + name));
  }
}
