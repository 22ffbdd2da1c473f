package dev.speechscale.capacity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
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

  private static Plan scalablePlan(Derivation.Scalable d, List<Finding> findings) {
    Measurement m = d.m();
    double cv = m.serviceTimes().coefficientOfVariation();
    return Plan.of(
        verdict(findings),
        new Plan.QMax(d.qMax(), m.ladder().bracketed(), m.ladder().refined()),
        new Plan.Thresholds(
            d.cScaleMax(),
            d.cScaleMin(),
            d.scalingTargetValue(),
            d.scaleInThreshold(),
            d.ratioMax(),
            d.ratioAverage()),
        new Plan.Fleet(
            d.minInstances(),
            d.maxInstances(),
            d.troughInstances(),
            d.peakInstances(),
            d.minSafe(),
            d.naiveMax(),
            d.qMax()),
        timing(d),
        new Plan.Surge(
            Utilization.mm1(d.cScaleMax()),
            Utilization.mg1(d.cScaleMax(), cv),
            cv,
            d.shedProbability(),
            d.recommended(),
            d.throughput()),
        findings);
  }

  /** The plan of a ladder where no rung met the SLO ({@link Plan#unscalable}). */
  private static Plan unscalablePlan(Derivation.Unscalable d, List<Finding> findings) {
    Measurement m = d.m();
    return Plan.unscalable(
        verdict(findings),
        m.ladder().bracketed(),
        m.ladder().refined(),
        d.minInstances(),
        d.maxInstances(),
        timing(d),
        m.serviceTimes().coefficientOfVariation(),
        findings);
  }

  /** The times, which a plan has whether or not a rung met the SLO. */
  private static Plan.Timing timing(Derivation d) {
    Measurement m = d.m();
    return new Plan.Timing(
        d.cooldowns().scaleOutSeconds(),
        d.cooldowns().scaleInSeconds(),
        d.wMaxSeconds(),
        d.wMaxSeconds() + m.sP95Seconds(),
        d.t().plannedSeconds(),
        boxed(m.ladder().lowestRungTtfabP95Ms()));
  }

  /** {@code ok} when nothing warns, {@code warn (N)}, or {@code INFEASIBLE}. */
  static PlanVerdict verdict(List<Finding> findings) {
    return PlanVerdict.of(findings);
  }

  private static Derivation derive(Measurement m, ScaleOutTime t, Scenario s) {
    if (s.sloMs() != m.ladder().sloMs()) {
      throw new CapacityException(
          "scenario SLO ("
              + s.sloMs()
              + " ms) differs from the ladder's ("
              + m.ladder().sloMs()
              + " ms); Q_max is only meaningful at the SLO it was measured against");
    }
    int qMax = m.ladder().qMax();
    double sloSeconds = s.sloMs() / 1000.0;
    double wMax = Math.max(0, sloSeconds - m.sP95Seconds());
    Cooldowns cooldowns = Cooldowns.forScaleOutTime(t.plannedSeconds());
    if (qMax < 1) {
      return Derivation.Unscalable.of(m, t, s, wMax, cooldowns);
    }
    Thresholds th = Thresholds.of(qMax, s.surgeRatio());
    Optional<UnitsRatio> ratioMax =
        m.ladder().ratioNear(th.cScaleMax(), UnitsRatio.Statistic.MAXIMUM);
    Optional<UnitsRatio> ratioAvg =
        m.ladder().ratioNear(th.cScaleMin(), UnitsRatio.Statistic.AVERAGE);
    ThroughputCurve curve = m.ladder().throughputCurve();
    boolean throughputMeasured = !curve.isEmpty();
    double xAtMax = curve.at(th.cScaleMax()).orElse(1.0 / m.sMeanSeconds());
    double xAtQ = curve.at(qMax).orElse(1.0 / m.sMeanSeconds());
    double capacity = capacityPerSecond(m);
    int peakN = FleetSizing.instances(s.peak(), th.cScaleMax(), xAtMax);
    int troughN =
        s.trough() == null ? 0 : FleetSizing.instances(s.trough(), th.cScaleMax(), xAtMax);
    int peakAtQ = FleetSizing.instances(s.peak(), qMax, xAtQ);
    int minN = Math.max(s.minFloor(), troughN);
    int maxN = Math.max(minN, peakN);
    Integer naive =
        s.peak() instanceof Load.RequestRate r
            ? FleetSizing.naive(r.perSecond(), m.sMeanSeconds(), th.cScaleMax())
            : null;
    SurgeSimulation sim = simulation(m, t, s, qMax);
    double shed = sim.shedProbability(th.cScaleMax());
    OptionalDouble recommended = sim.largestSafeThreshold(th.cScaleMax(), s.shedTarget());
    return new Derivation.Scalable(
        m,
        t,
        s,
        wMax,
        cooldowns,
        minN,
        maxN,
        qMax,
        th.cScaleMax(),
        th.cScaleMin(),
        th.minSafeInstances().isPresent() ? th.minSafeInstances().getAsInt() : null,
        ratioMax.orElse(null),
        ratioAvg.orElse(null),
        throughputMeasured,
        xAtMax,
        capacity,
        curve.extrapolates(th.cScaleMax()),
        troughN,
        peakN,
        peakAtQ,
        naive,
        sim,
        shed,
        boxed(recommended));
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
