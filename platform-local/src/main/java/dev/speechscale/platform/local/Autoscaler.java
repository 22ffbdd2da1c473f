package dev.speechscale.platform.local;

import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.Statistic;
import dev.speechscale.platform.SuspendedState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The local Application Auto Scaling: the two policies a plan deploys, evaluated on the {@link
 * MetricStore} with AWS's semantics.
 *
 * <ul>
 *   <li>Target tracking on ConcurrentRequestsPerModel, Maximum over 10 s periods, scale-in
 *       disabled: when the last 3 datapoints all exceed the target, desired becomes {@code min(max,
 *       ⌈in-service × latest / target⌉)} if that is more than desired now, at most once per
 *       scale-out cooldown.
 *   <li>Step scale-in: an alarm on the Average over 60 s periods; when the last 3 datapoints are
 *       all at or below the scale-in threshold, desired drops by one (not below min), at most once
 *       per scale-in cooldown.
 *   <li>Suspended flags stop the matching direction; a desired count set directly still applies.
 * </ul>
 *
 * <p>Periods are aligned to the epoch, as CloudWatch aligns them. The local platform may compress
 * periods (time scale) for tests and demos; the policy reports the periods it really uses.
 */
final class Autoscaler {
  /**
   * The deployed policies, in real time.
   *
   * @param targetValue target tracking target (Maximum)
   * @param scaleInThreshold scale-in alarm threshold (Average)
   * @param minCapacity fewest instances
   * @param maxCapacity most instances
   * @param scaleOutCooldown after a scale-out
   * @param scaleInCooldown after a scale-in
   * @param trackingPeriod the tracking alarm's period (10 s, scaled)
   * @param trackingEvaluationPeriods datapoints that must breach (3)
   * @param scaleInPeriod the scale-in alarm's period (60 s, scaled)
   * @param scaleInEvaluationPeriods datapoints that must breach (3)
   */
  record Policy(
      double targetValue,
      double scaleInThreshold,
      int minCapacity,
      int maxCapacity,
      Duration scaleOutCooldown,
      Duration scaleInCooldown,
      Duration trackingPeriod,
      int trackingEvaluationPeriods,
      Duration scaleInPeriod,
      int scaleInEvaluationPeriods) {

    /** AWS's periods multiplied by {@code timeScale} (at least one second each). */
    static Policy of(
        double target,
        double scaleIn,
        int min,
        int max,
        int outCooldownS,
        int inCooldownS,
        double timeScale) {
      return new Policy(
          target,
          scaleIn,
          min,
          max,
          Duration.ofSeconds(outCooldownS),
          Duration.ofSeconds(inCooldownS),
          scaled(10, timeScale),
          3,
          scaled(60, timeScale),
          3);
    }

    private static Duration scaled(int seconds, double timeScale) {
      return Duration.ofMillis(Math.max(1000, Math.round(seconds * 1000 * timeScale)));
    }
  }

  /** What the autoscaler acts on. */
  interface Capacity {
    int desired();

    int inService();

    void setDesired(int count, String cause);
  }

  /**
   * A scaling activity.
   *
   * @param at when
   * @param from desired before
   * @param to desired after
   * @param cause which policy and why
   */
  record Activity(Instant at, int from, int to, String cause) {}

  private final Policy policy;
  private final MetricStore metrics;
  private final Capacity capacity;
  private final List<Activity> activities = new ArrayList<>();
  private SuspendedState suspended = SuspendedState.NONE;
  private Alarm.AlarmState highAlarm = Alarm.AlarmState.INSUFFICIENT_DATA;
  private Alarm.AlarmState lowAlarm = Alarm.AlarmState.INSUFFICIENT_DATA;
  private Instant lastScaleOut = Instant.EPOCH;
  private Instant lastScaleIn = Instant.EPOCH;

  Autoscaler(Policy policy, MetricStore metrics, Capacity capacity) {
    this.policy = policy;
    this.metrics = metrics;
    this.capacity = capacity;
  }

  Policy policy() {
    return policy;
  }

  /** Evaluates both alarms at {@code now} and acts on them. */
  synchronized void evaluate(Instant now) {
    MetricSeries high =
        lastPeriods(
            now, Statistic.MAXIMUM, policy.trackingPeriod(), policy.trackingEvaluationPeriods());
    MetricSeries low =
        lastPeriods(
            now, Statistic.AVERAGE, policy.scaleInPeriod(), policy.scaleInEvaluationPeriods());
    highAlarm =
        state(
            high,
            policy.trackingEvaluationPeriods(),
            Alarm.Comparison.GREATER_THAN_THRESHOLD,
            policy.targetValue());
    lowAlarm =
        state(
            low,
            policy.scaleInEvaluationPeriods(),
            Alarm.Comparison.LESS_THAN_OR_EQUAL_TO_THRESHOLD,
            policy.scaleInThreshold());
    if (highAlarm == Alarm.AlarmState.ALARM
        && !suspended.dynamicScalingOut()
        && !now.isBefore(lastScaleOut.plus(policy.scaleOutCooldown()))) {
      double latest = high.datapoints().getLast().value();
      int inService = Math.max(1, capacity.inService());
      int proposed =
          Math.min(
              policy.maxCapacity(),
              (int) Math.ceil(inService * latest / policy.targetValue() - 1e-9));
      int desired = capacity.desired();
      if (proposed > desired) {
        act(
            now,
            desired,
            proposed,
            String.format(
                Locale.ROOT,
                "target tracking: ConcurrentRequestsPerModel Maximum %.2f > target %.2f for %d"
                    + " periods; desired = ceil(%d x %.2f / %.2f)",
                latest,
                policy.targetValue(),
                policy.trackingEvaluationPeriods(),
                inService,
                latest,
                policy.targetValue()));
        lastScaleOut = now;
      }
    }
    if (lowAlarm == Alarm.AlarmState.ALARM
        && !suspended.dynamicScalingIn()
        && !now.isBefore(lastScaleIn.plus(policy.scaleInCooldown()))) {
      int desired = capacity.desired();
      if (desired > policy.minCapacity()) {
        act(
            now,
            desired,
            desired - 1,
            String.format(
                Locale.ROOT,
                "step scale-in: ConcurrentRequestsPerModel Average %.2f <= %.2f for %d periods",
                low.datapoints().getLast().value(),
                policy.scaleInThreshold(),
                policy.scaleInEvaluationPeriods()));
        lastScaleIn = now;
      }
    }
  }

  private void act(Instant now, int from, int to, String cause) {
    capacity.setDesired(to, cause);
    activities.add(new Activity(now, from, to, cause));
  }

  private MetricSeries lastPeriods(Instant now, Statistic statistic, Duration period, int count) {
    long periodMs = period.toMillis();
    long end = Math.floorDiv(now.toEpochMilli(), periodMs) * periodMs;
    return metrics.query(
        new MetricQuery(
            MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL,
            statistic,
            period,
            Instant.ofEpochMilli(end - count * periodMs),
            Instant.ofEpochMilli(end)));
  }

  private static Alarm.AlarmState state(
      MetricSeries s, int needed, Alarm.Comparison comparison, double threshold) {
    if (s.datapoints().size() < needed) {
      return Alarm.AlarmState.INSUFFICIENT_DATA;
    }
    boolean all = s.datapoints().stream().allMatch(d -> comparison.breaches(d.value(), threshold));
    return all ? Alarm.AlarmState.ALARM : Alarm.AlarmState.OK;
  }

  synchronized SuspendedState suspended() {
    return suspended;
  }

  synchronized void setSuspended(SuspendedState state) {
    this.suspended = state;
  }

  synchronized Alarm.AlarmState highAlarm() {
    return highAlarm;
  }

  synchronized Alarm.AlarmState lowAlarm() {
    return lowAlarm;
  }

  synchronized List<Activity> activities() {
    return List.copyOf(activities);
  }
}
