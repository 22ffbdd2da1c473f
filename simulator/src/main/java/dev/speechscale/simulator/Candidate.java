package dev.speechscale.simulator;

import dev.speechscale.platform.MetricQuery;
import dev.speechscale.scaling.ScaleInAlarm;
import dev.speechscale.scaling.ScalingRules;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * One policy of the search space, all of it deployable by a plan artifact: target tracking on
 * SageMaker's ConcurrentRequestsPerModel (Maximum, 10 s × 3, scale-in disabled), step scale-in on
 * {@code alarm} (3 periods at or below the threshold, −1 instance), the two cooldowns, MinCapacity
 * and MaxCapacity, and scheduled MinCapacity floors.
 *
 * @param targetValue scaling_target_value
 * @param scaleInThreshold scale_in_threshold
 * @param alarm scale_in_alarm
 * @param scaleOutCooldownS scale_out_cooldown_s
 * @param scaleInCooldownS scale_in_cooldown_s
 * @param min min_instances
 * @param max max_instances
 * @param floorFraction what the floors were derived with (0: none)
 * @param floors the scheduled floors
 */
public record Candidate(
    double targetValue,
    double scaleInThreshold,
    ScaleInAlarm alarm,
    int scaleOutCooldownS,
    int scaleInCooldownS,
    int min,
    int max,
    double floorFraction,
    List<Floors.Floor> floors) {
  public Candidate {
    floors = List.copyOf(floors);
    if (!(targetValue > 0) || !(scaleInThreshold >= 0) || scaleInThreshold >= targetValue) {
      throw new SimulatorException(
          "a candidate's scale-in threshold ("
              + scaleInThreshold
              + ") must be at least 0 and below its target ("
              + targetValue
              + ")");
    }
    if (min < 1 || max < min) {
      throw new SimulatorException(
          "a candidate's instances " + min + ".." + max + " must satisfy 1 <= min <= max");
    }
    if (scaleOutCooldownS < 0 || scaleInCooldownS < 0) {
      throw new SimulatorException("a candidate's cooldowns must be at least 0 s");
    }
  }

  /** The same policy with other floors. */
  public Candidate withFloors(double fraction, List<Floors.Floor> newFloors) {
    return new Candidate(
        targetValue,
        scaleInThreshold,
        alarm,
        scaleOutCooldownS,
        scaleInCooldownS,
        min,
        max,
        fraction,
        newFloors);
  }

  /** A short unique name, the key the search caches its screenings under. */
  public String key() {
    return String.format(
        Locale.ROOT,
        "t%s/in%s/%s/cd%d-%d/%d-%d/f%s",
        SearchGoal.plain(targetValue),
        SearchGoal.plain(scaleInThreshold),
        alarm.label(),
        scaleOutCooldownS,
        scaleInCooldownS,
        min,
        max,
        SearchGoal.plain(floorFraction));
  }

  /** One line with the numbers that define it. */
  public String description() {
    return String.format(
        Locale.ROOT,
        "%s Maximum > %s (10 s x 3), step scale-in at %s <= %s (%d s x 3),"
            + " cooldowns %d s out / %d s in, %d..%d instances, scheduled floors: %s",
        MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName(),
        SearchGoal.plain(targetValue),
        alarm.statistic().awsName(),
        SearchGoal.plain(scaleInThreshold),
        alarm.period().toSeconds(),
        scaleOutCooldownS,
        scaleInCooldownS,
        min,
        max,
        Floors.describe(floors));
  }

  /** The policy as deployed, under {@code name}. */
  public Policy policy(String name) {
    return new Policy.Rules(name, rules(min, max, scaleInCooldownS, floors));
  }

  /**
   * The policy on a fleet {@code scale} times smaller, what the screening simulates over traffic
   * {@code scale} times lighter: per-instance thresholds and the scale-out cooldown unchanged, min,
   * max and floors divided by {@code scale} (rounded, at least 1), and the scale-in cooldown
   * multiplied by it, since a step scale-in removes one instance per cooldown whatever the fleet:
   * the same share of the fleet per second.
   */
  public Policy screened(String name, int scale) {
    int minS = Math.max(1, (int) Math.round((double) min / scale));
    int maxS = Math.max(minS, Math.ceilDiv(max, scale));
    List<Floors.Floor> f =
        floors.stream()
            .map(x ->
                new Floors.Floor(
                    x.secondOfDay(),
                    Math.max(minS, Math.min(maxS, Math.ceilDiv(x.minCapacity(), scale)))))
            .toList();
    return new Policy.Rules(name, rules(minS, maxS, (long) scaleInCooldownS * scale, f));
  }

  private ScalingRules rules(int lo, int hi, long inCooldownS, List<Floors.Floor> f) {
    ScalingRules r =
        ScalingRules.planned(
            targetValue,
            scaleInThreshold,
            lo,
            hi,
            Duration.ofSeconds(scaleOutCooldownS),
            Duration.ofSeconds(inCooldownS),
            alarm);
    return FloorRules.apply(r, f);
  }
}
