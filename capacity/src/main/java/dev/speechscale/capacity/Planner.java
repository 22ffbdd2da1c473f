package dev.speechscale.capacity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * Derives a {@link Plan} from a measurement, a scale-out time and a scenario. Deterministic: the
 * same inputs give the same plan, to the last digit, on every machine.
 */
public final class Planner {
  private Planner() {}

  /** Every finding name, in the order a plan lists equally severe findings. */
  public static final List<String> FINDING_ORDER =
      List.of(
          "measurement_trust",
          "curve_repeatability",
          "slo_budget",
          "invocation_ceiling",
          "queue_depth",
          "threshold_units",
          "surge_survival",
          "scale_in_safety",
          "policy_conflict",
          "fleet_cost",
          "fleet_capacity",
          "provision_stage");

  /** Computes the plan. */
  public static Plan plan(Measurement m, ScaleOutTime t, Scenario s) {
    Derivation d = derive(m, t, s);
    List<Finding> findings = new ArrayList<>(Findings.all(d));
    findings.sort(
        Comparator.comparingInt((Finding f) -> -f.verdict().severity())
            .thenComparingInt(f -> FINDING_ORDER.indexOf(f.name())));
    return switch (d) {
      case Derivation.Scalable z -> scalablePlan(z, findings);
      case Derivation.Unscalable u -> unscalablePlan(u, findings);
    };
  }

  /** The plan of a ladder where some rung met the SLO: the sections the findings judged. */
  private static Plan scalablePlan(Derivation.Scalable d, List<Finding> findings) {
    double cScaleMax = d.thresholds().cScaleMax();
    double cv = d.m().serviceTimes().coefficientOfVariation();
    return Plan.of(
        verdict(findings),
        d.qMaxSection(),
        d.thresholds(),
        d.fleet(),
        d.timing(),
        new Plan.Surge(
            Utilization.mm1(cScaleMax),
            Utilization.mg1(cScaleMax, cv),
            cv,
            d.surge().shedProbability(),
            d.surge().recommendedCScaleMax(),
            d.throughput().atCScaleMaxPerSecond()),
        findings);
  }

  /** The plan of a ladder where no rung met the SLO ({@link Plan#unscalable}). */
  private static Plan unscalablePlan(Derivation.Unscalable d, List<Finding> findings) {
    Measurement m = d.m();
    return Plan.unscalable(
        verdict(findings),
        m.ladder().bracketed(),
        m.ladder().refined(),
        d.s().minFloor(),
        d.s().minFloor(),
        d.timing(),
        m.serviceTimes().coefficientOfVariation(),
        findings);
  }

  /** {@code ok} when nothing warns, {@code warn (N)}, or {@code INFEASIBLE}. */
  static PlanVerdict verdict(List<Finding> findings) {
    return PlanVerdict.of(findings);
  }

  /**
   * The planner's stages in order: the times, then (with Q_max ≥ 1) the thresholds, the throughput
   * they are held at, the fleet that throughput sizes, and the surge simulated over T.
   */
  private static Derivation derive(Measurement m, ScaleOutTime t, Scenario s) {
    if (s.sloMs() != m.ladder().sloMs()) {
      throw new CapacityException(
          "scenario SLO ("
              + s.sloMs()
              + " ms) differs from the ladder's ("
              + m.ladder().sloMs()
              + " ms); Q_max is only meaningful at the SLO it was measured against");
    }
    Plan.Timing timing = timing(m, t, s);
    int qMax = m.ladder().qMax();
    if (qMax < 1) {
      return new Derivation.Unscalable(m, t, s, timing);
    }
    Thresholds th = Thresholds.of(qMax, s.surgeRatio());
    Plan.Thresholds thresholds = thresholds(m, th);
    Derivation.Throughput throughput = Derivation.Throughput.of(m, th.cScaleMax(), qMax);
    Plan.Fleet fleet = fleet(m, s, th, throughput.atCScaleMaxPerSecond(), qMax);
    int peakAtQMax = FleetSizing.instances(s.peak(), qMax, throughput.atQMaxPerSecond());
    return new Derivation.Scalable(
        m,
        t,
        s,
        timing,
        new Plan.QMax(qMax, m.ladder().bracketed(), m.ladder().refined()),
        thresholds,
        throughput,
        fleet,
        peakAtQMax,
        Derivation.Surge.of(simulation(m, t, s, qMax), th.cScaleMax(), s.shedTarget()));
  }

  /**
   * The times, which a plan has whether or not a rung met the SLO: W_max = SLO − S_p95 (not below
   * zero), the cooldowns T gives, the request deadline W_max + S_p95, T itself and the first-chunk
   * alarm (p95 TTFAB at the lowest usable rung, {@code null} when no rung was usable).
   */
  static Plan.Timing timing(Measurement m, ScaleOutTime t, Scenario s) {
    double wMaxSeconds = Math.max(0, s.sloMs() / 1000.0 - m.sP95Seconds());
    Cooldowns cooldowns = Cooldowns.forScaleOutTime(t.plannedSeconds());
    return new Plan.Timing(
        cooldowns.scaleOutSeconds(),
        cooldowns.scaleInSeconds(),
        wMaxSeconds,
        wMaxSeconds + m.sP95Seconds(),
        t.plannedSeconds(),
        boxed(m.ladder().lowestRungTtfabP95Ms()));
  }

  /**
   * The thresholds in client units and, when the ladder measured both units ratios (Maximum near
   * C_scale_max, Average near C_scale_min), in the deployed metric's, rounded as they deploy
   * ({@link #deployable}); without both, neither converted threshold is given, so nothing deploys a
   * client-unit number against the server's metric.
   */
  static Plan.Thresholds thresholds(Measurement m, Thresholds th) {
    UnitsRatio ratioMax =
        m.ladder().ratioNear(th.cScaleMax(), UnitsRatio.Statistic.MAXIMUM).orElse(null);
    UnitsRatio ratioAverage =
        m.ladder().ratioNear(th.cScaleMin(), UnitsRatio.Statistic.AVERAGE).orElse(null);
    if (ratioMax == null || ratioAverage == null) {
      return new Plan.Thresholds(
          th.cScaleMax(), th.cScaleMin(), null, null, ratioMax, ratioAverage);
    }
    return new Plan.Thresholds(
        th.cScaleMax(),
        th.cScaleMin(),
        deployable(th.cScaleMax() * ratioMax.ratio()),
        deployable(th.cScaleMin() * ratioAverage.ratio()),
        ratioMax,
        ratioAverage);
  }

  /**
   * The fleet for the scenario's loads with each instance held at C_scale_max completing {@code
   * xAtCScaleMaxPerSecond}: the floor is the larger of the scenario's floor and what the trough
   * needs, the ceiling the larger of the floor and what the peak needs; N_safe from the thresholds;
   * the published sizing only for a peak given as a request rate; the queue bound at Q_max.
   */
  static Plan.Fleet fleet(
      Measurement m, Scenario s, Thresholds th, double xAtCScaleMaxPerSecond, int qMax) {
    int peakInstances = FleetSizing.instances(s.peak(), th.cScaleMax(), xAtCScaleMaxPerSecond);
    int troughInstances =
        s.trough() == null
            ? 0
            : FleetSizing.instances(s.trough(), th.cScaleMax(), xAtCScaleMaxPerSecond);
    int minInstances = Math.max(s.minFloor(), troughInstances);
    Integer naiveMaxInstances =
        s.peak() instanceof Load.RequestRate r
            ? FleetSizing.naive(r.perSecond(), m.sMeanSeconds(), th.cScaleMax())
            : null;
    OptionalInt minSafe = th.minSafeInstances();
    return new Plan.Fleet(
        minInstances,
        Math.max(minInstances, peakInstances),
        troughInstances,
        peakInstances,
        minSafe.isPresent() ? minSafe.getAsInt() : null,
        naiveMaxInstances,
        qMax);
  }

  /**
   * The surge simulation a plan judges {@code surge_survival} with: one instance of Q_max {@code
   * qMax} at the highest throughput the ladder measured, for T, under the scenario's surge ratio,
   * trials and seed. {@link SurgeCurve} reruns it at other thresholds.
   */
  static SurgeSimulation simulation(Measurement m, ScaleOutTime t, Scenario s, int qMax) {
    return new SurgeSimulation(
        new SurgeSimulation.Model(
            qMax,
            t.plannedSeconds(),
            capacityPerSecond(m),
            m.serviceTimes(),
            s.surgeRatio(),
            s.trials(),
            s.seed()));
  }

  /** Requests per second one instance completes at saturation: the ladder's peak, else 1/S. */
  private static double capacityPerSecond(Measurement m) {
    return m.ladder().throughputCurve().peak().orElse(1.0 / m.sMeanSeconds());
  }

  /**
   * A threshold as it deploys: rounded to three decimals, the precision the config file, the alarm
   * and every report print, so the plan and a config copied from it agree exactly.
   */
  static double deployable(double threshold) {
    return Math.round(threshold * 1000.0) / 1000.0;
  }

  private static @Nullable Double boxed(OptionalDouble v) {
    return v.isPresent() ? v.getAsDouble() : null;
  }
}
