package dev.speechscale.report;

import java.util.List;

/**
 * What the quickstart's policy search found, as the report shows it: the frontier of instance-hours
 * against SLO attainment on the fitted trace (screened), every candidate and rival placed on it,
 * the held-out day in full, and the policy chosen (deployed and replayed live).
 *
 * @param goal the goal, as a sentence ({@code >= 99.9 % within the SLO, <= 0.1 % shed})
 * @param trace the fitted trace's description and seeds
 * @param recommended the chosen candidate's name
 * @param policy the chosen policy, described
 * @param meetsGoal whether it met the goal on the fitted trace in full
 * @param candidates every candidate screened (fitted trace)
 * @param rivals the rivals screened (fitted trace)
 * @param frontier the frontier's points, cheapest first
 * @param heldOut the held-out day in full: the chosen policy first, then the rivals
 * @param planFile the plan artifact the search wrote (the one deployed and replayed)
 * @param targetValue the chosen policy's scaling target value
 * @param scaleInThreshold the chosen policy's scale-in threshold
 */
public record SearchView(
    String goal,
    String trace,
    String recommended,
    String policy,
    boolean meetsGoal,
    List<Point> candidates,
    List<Point> rivals,
    List<Point> frontier,
    List<Row> heldOut,
    String planFile,
    double targetValue,
    double scaleInThreshold) {
  public SearchView {
    candidates = List.copyOf(candidates);
    rivals = List.copyOf(rivals);
    frontier = List.copyOf(frontier);
    heldOut = List.copyOf(heldOut);
  }

  /**
   * Whether {@code replay} drove this search's chosen policy (its deployed target and threshold).
   */
  public boolean replayed(dev.speechscale.artifacts.ReplayArtifact replay) {
    return Math.abs(replay.physics().targetValue() - targetValue) < 1e-6
        && Math.abs(replay.physics().scaleInThreshold() - scaleInThreshold) < 1e-6;
  }

  /**
   * One policy on the frontier's axes.
   *
   * @param name its name
   * @param instanceHours instance-hours
   * @param attainment share of arrivals within the SLO, 0..1
   */
  public record Point(String name, double instanceHours, double attainment) {}

  /**
   * One policy's full simulation on the held-out day.
   *
   * @param name its name
   * @param deployable whether the platform can deploy it
   * @param attainment within the SLO, 0..1
   * @param shed shed, 0..1
   * @param p95Ms p95 time to first audio byte
   * @param instanceHours instance-hours
   * @param scaleOuts scale-outs
   * @param scaleIns scale-ins
   */
  public record Row(
      String name,
      boolean deployable,
      double attainment,
      double shed,
      double p95Ms,
      double instanceHours,
      int scaleOuts,
      int scaleIns) {}
}
