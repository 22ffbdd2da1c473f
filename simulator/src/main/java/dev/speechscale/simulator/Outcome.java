package dev.speechscale.simulator;

/**
 * The figures of one simulated day the search ranks and reports.
 *
 * @param instanceHours billed instance-hours (a screening's multiplied back to full scale)
 * @param attainment arrivals served within the SLO, 0..1
 * @param shed arrivals shed, 0..1
 * @param p95Ms p95 TTFAB of served requests
 * @param p99Ms p99 TTFAB of served requests
 * @param minutesAtMax minutes with desired capacity at the policy's maximum
 * @param scaleOuts decisions that raised capacity
 * @param scaleIns decisions that lowered it
 */
public record Outcome(
    double instanceHours,
    double attainment,
    double shed,
    double p95Ms,
    double p99Ms,
    double minutesAtMax,
    int scaleOuts,
    int scaleIns) {

  /** The figures of {@code r}, its instance-hours multiplied by {@code scale}. */
  public static Outcome of(PolicyResult r, int scale) {
    return new Outcome(
        r.instanceHours() * scale,
        r.sloAttainment(),
        r.shedFraction(),
        r.ttfabP95Ms(),
        r.ttfabP99Ms(),
        r.secondsAtMax() / 60.0,
        r.scaleOuts(),
        r.scaleIns());
  }

  /** Whether it meets {@code goal}. */
  public boolean meets(SearchGoal goal) {
    return goal.meets(attainment, shed);
  }
}
