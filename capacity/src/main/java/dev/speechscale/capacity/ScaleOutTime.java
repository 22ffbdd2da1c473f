package dev.speechscale.capacity;

import java.util.List;

/**
 * T_total as the planner uses it: the measured (or assumed) part plus the policy's detection lag.
 *
 * @param measuredSeconds desired_set → traffic_recovered, or the assumed total
 * @param policyLagBoundSeconds alarm period × evaluation periods + scale-out cooldown, read from
 *     the deployed policy; 0 when the total is assumed
 * @param measured false when the operator assumed T instead of measuring it
 * @param stages consecutive stage durations that sum to {@code measuredSeconds}
 * @param missingStages stages the measurement could not observe
 */
public record ScaleOutTime(
    double measuredSeconds,
    double policyLagBoundSeconds,
    boolean measured,
    List<Stage> stages,
    List<String> missingStages) {

  public ScaleOutTime {
    if (!(measuredSeconds > 0) || Double.isInfinite(measuredSeconds)) {
      throw new CapacityException(
          "T_total (" + measuredSeconds + " s) must be finite and positive");
    }
    if (!(policyLagBoundSeconds >= 0)) {
      throw new CapacityException(
          "policy lag bound (" + policyLagBoundSeconds + " s) must be >= 0");
    }
    stages = List.copyOf(stages);
    missingStages = List.copyOf(missingStages);
  }

  /** An operator's assumption, with no breakdown. */
  public static ScaleOutTime assumed(double seconds) {
    return new ScaleOutTime(seconds, 0, false, List.of(), List.of());
  }

  /** T: what surge headroom and cooldowns are planned against. */
  public double plannedSeconds() {
    return measuredSeconds + policyLagBoundSeconds;
  }

  /**
   * One stage of a scale-out.
   *
   * @param from the earlier stage
   * @param to the later stage
   * @param seconds the time between them
   * @param bounded true when an endpoint is an upper bound rather than an observation
   */
  public record Stage(String from, String to, double seconds, boolean bounded) {}
}
