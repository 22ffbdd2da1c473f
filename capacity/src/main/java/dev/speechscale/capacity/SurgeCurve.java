package dev.speechscale.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The {@code surge_survival} finding as a curve: the shed probability of the plan's own {@link
 * SurgeSimulation} at scale-out thresholds from 1 up to Q_max − 1 (at Q_max the instance is already
 * full), the planned C_scale_max and the recommended value included. Every point is {@link
 * SurgeSimulation#shedProbability} with the plan's seed and trials, so the point at C_scale_max is
 * exactly the plan's {@code shed_probability}: a reader sees how much a lower threshold buys and
 * where the recommendation sits.
 *
 * <p>Each point costs what the plan's one {@code shed_probability} costs, so a curve simulates at
 * most {@link #MAX_WHOLE_THRESHOLDS} evenly spread whole thresholds, then every whole threshold
 * between two neighbours whose probabilities differ by more than {@link #REFINE_STEP} (where the
 * curve turns), up to as many again. The planner does not draw it; the plan artifact does, once
 * ({@code surge_curve}).
 */
public final class SurgeCurve {
  /** The most evenly spread whole thresholds a curve simulates before refining. */
  public static final int MAX_WHOLE_THRESHOLDS = 24;

  /** A jump in shed probability between neighbours that is filled in with every whole threshold. */
  static final double REFINE_STEP = 0.2;

  private SurgeCurve() {}

  /**
   * One threshold and its shed probability.
   *
   * @param cScaleMax the scale-out threshold the surge starts from, client units
   * @param shedProbability P(the queue reaches Q_max within T) under the k× surge, in [0, 1]
   */
  public record Point(double cScaleMax, double shedProbability) {}

  /**
   * The curve of the plan derived from {@code m}, {@code t} and {@code s}: empty when the plan
   * simulated nothing (no Q_max).
   */
  public static List<Point> of(Measurement m, ScaleOutTime t, Scenario s, Plan plan) {
    if (plan.qMax() < 1 || plan.shedProbability() == null) {
      return List.of();
    }
    SurgeSimulation sim = Planner.simulation(m, t, s, plan.qMax());
    return of(sim::shedProbability, plan.qMax(), plan.cScaleMax(), plan.recommendedCScaleMax());
  }

  /** A threshold's shed probability. */
  @FunctionalInterface
  interface Shed {
    double at(double threshold);
  }

  static List<Point> of(Shed shed, int qMax, double cScaleMax, @Nullable Double recommended) {
    TreeMap<Double, Double> curve = new TreeMap<>();
    for (double c : thresholds(qMax, cScaleMax, recommended)) {
      curve.put(c, shed.at(c));
    }
    int budget = MAX_WHOLE_THRESHOLDS;
    List<Map.Entry<Double, Double>> coarse = new ArrayList<>(curve.entrySet());
    for (int i = 1; i < coarse.size() && budget > 0; i++) {
      double a = coarse.get(i - 1).getKey();
      double b = coarse.get(i).getKey();
      if (Math.abs(coarse.get(i).getValue() - coarse.get(i - 1).getValue()) <= REFINE_STEP) {
        continue;
      }
      for (double c = Math.floor(a) + 1; c < b && budget > 0; c++) {
        if (!curve.containsKey(c)) {
          curve.put(c, shed.at(c));
          budget--;
        }
      }
    }
    return curve.entrySet().stream().map(e -> new Point(e.getKey(), e.getValue())).toList();
  }

  /** The evenly spread thresholds a curve starts from, ascending, without duplicates. */
  static List<Double> thresholds(int qMax, double cScaleMax, @Nullable Double recommended) {
    TreeSet<Double> out = new TreeSet<>();
    int whole = qMax - 1;
    int step = Math.max(1, (int) Math.ceil(whole / (double) MAX_WHOLE_THRESHOLDS));
    for (int c = 1; c <= whole; c += step) {
      out.add((double) c);
    }
    if (whole >= 1) {
      out.add((double) whole);
    }
    if (cScaleMax > 0) {
      out.add(cScaleMax);
    }
    if (recommended != null) {
      out.add(recommended);
    }
    return List.copyOf(out);
  }
}
