package dev.speechscale.simulator;

import dev.speechscale.platform.MetricQuery.Metric;
import dev.speechscale.scaling.MetricStatistic;
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
 * @param metric what target tracking tracks: {@link Metric#CONCURRENT_REQUESTS_PER_MODEL} (Maximum
 *     10 s × 3, {@code DisableScaleIn}, the step scale-in above) or {@link
 *     Metric#INVOCATIONS_PER_INSTANCE} (SageMaker's predefined InvocationsPerInstance, Sum over 60
 *     s, {@code targetValue} per instance per minute, scale-in enabled: the tracking policy's own
 *     low alarm removes capacity after {@code scaleInCooldownS}, no step policy, so none fights it;
 *     {@code scaleInThreshold} and {@code alarm} are not deployed)
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
    List<Floors.Floor> floors,
    Metric metric) {
  public Candidate {
    floors = List.copyOf(floors);
    java.util.Objects.requireNonNull(metric, "metric");
    if (metric != Metric.CONCURRENT_REQUESTS_PER_MODEL
        && metric != Metric.INVOCATIONS_PER_INSTANCE) {
      throw new SimulatorException(
          "a candidate tracks ConcurrentRequestsPerModel or InvocationsPerInstance, not "
              + metric.cloudWatchName());
    }
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

  /** Whether target tracking scales in itself (InvocationsPerInstance: no step policy). */
  public boolean tracksScaleIn() {
    return metric == Metric.INVOCATIONS_PER_INSTANCE;
  }

  /** SageMaker's InvocationsPerInstance period (a standard-resolution metric, one minute). */
  static final Duration INVOCATIONS_PERIOD = Duration.ofSeconds(60);

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
        newFloors,
        metric);
  }

  /** The same policy with another target and scale-in threshold. */
  public Candidate withTarget(double target, double threshold) {
    return with(target, threshold, alarm, scaleOutCooldownS, scaleInCooldownS, min, max);
  }

  /** The same policy with another scale-in alarm. */
  public Candidate withAlarm(ScaleInAlarm a) {
    return with(targetValue, scaleInThreshold, a, scaleOutCooldownS, scaleInCooldownS, min, max);
  }

  /** The same policy with other cooldowns. */
  public Candidate withCooldowns(int outS, int inS) {
    return with(targetValue, scaleInThreshold, alarm, outS, inS, min, max);
  }

  /** The same policy with other instance bounds. */
  public Candidate withInstances(int lo, int hi) {
    return with(targetValue, scaleInThreshold, alarm, scaleOutCooldownS, scaleInCooldownS, lo, hi);
  }

  private Candidate with(double t, double in, ScaleInAlarm a, int outS, int inS, int lo, int hi) {
    return new Candidate(t, in, a, outS, inS, lo, hi, floorFraction, floors, metric);
  }

  /** A short unique name, the key the search caches its screenings under. */
  public String key() {
    if (tracksScaleIn()) {
      return String.format(
          Locale.ROOT,
          "inv%s/cd%d-%d/%d-%d/f%s",
          SearchGoal.plain(targetValue),
          scaleOutCooldownS,
          scaleInCooldownS,
          min,
          max,
          SearchGoal.plain(floorFraction));
    }
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
    String rest =
        String.format(
            Locale.ROOT,
            "cooldowns %d s out / %d s in, %d..%d instances, scheduled floors: %s",
            scaleOutCooldownS,
            scaleInCooldownS,
            min,
            max,
            Floors.describe(floors));
    if (tracksScaleIn()) {
      return String.format(
              Locale.ROOT,
              "%s target tracking at %s per instance per minute (Sum, 60 s; scale-in enabled, no"
                  + " step policy), ",
              Metric.INVOCATIONS_PER_INSTANCE.cloudWatchName(),
              SearchGoal.plain(targetValue))
          + rest;
    }
    return String.format(
            Locale.ROOT,
            "%s Maximum > %s (10 s x 3), step scale-in at %s <= %s (%d s x 3), ",
            Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName(),
            SearchGoal.plain(targetValue),
            alarm.statistic().awsName(),
            SearchGoal.plain(scaleInThreshold),
            alarm.period().toSeconds())
        + rest;
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
   * the same share of the fleet per second. Target tracking's own scale-in (InvocationsPerInstance)
   * removes a share of the fleet at once, so its cooldown is left as it is.
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
    long inCooldown = tracksScaleIn() ? scaleInCooldownS : (long) scaleInCooldownS * scale;
    return new Policy.Rules(name, rules(minS, maxS, inCooldown, f));
  }

  private ScalingRules rules(int lo, int hi, long inCooldownS, List<Floors.Floor> f) {
    if (tracksScaleIn()) {
      return FloorRules.apply(
          ScalingRules.targetTracking(
              Metric.INVOCATIONS_PER_INSTANCE,
              MetricStatistic.SUM,
              INVOCATIONS_PERIOD,
              targetValue,
              lo,
              hi,
              Duration.ofSeconds(scaleOutCooldownS),
              Duration.ofSeconds(inCooldownS)),
          f);
    }
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
