package dev.speechscale.scaling;

import dev.speechscale.platform.MetricQuery.Metric;
import java.util.Locale;
import java.util.Objects;

/**
 * The state machine of one endpoint's scaling (or one simulated policy's): both alarms, the
 * cooldowns, min/max and the suspended flags, with Application Auto Scaling's semantics.
 *
 * <p>Each {@link #evaluate} reads the last complete periods of each alarm, aligned to the epoch as
 * CloudWatch aligns them, from the periods that are already published: the newest period read ends
 * at {@code ⌊(now − publicationDelay) / period⌋ × period}. Each alarm reads its evaluation range
 * ({@link AlarmEvaluation#range}) and treats periods without data as CloudWatch does ({@link
 * AlarmEvaluation}): the target tracking alarms as {@link TreatMissingData#TARGET_TRACKING} (all
 * missing → {@link AlarmState#INSUFFICIENT_DATA}, which never acts: Application Auto Scaling User
 * Guide, "How target tracking scaling for Application Auto Scaling works", Considerations: "A
 * target tracking scaling policy does not perform scaling when the specified metric has
 * insufficient data"), the step scale-in alarm as its {@link StepScaleIn#treatMissingData}. An
 * alarm acts only in ALARM.
 *
 * <ul>
 *   <li>Scale-out (target tracking): high alarm in ALARM, scale-out not suspended, the scale-out
 *       cooldown over → {@code min(max, ⌈max(1, inService) × latest / target⌉)} when that is more
 *       than desired.
 *   <li>Scale-in: low alarm in ALARM, scale-in not suspended, the scale-in cooldown over → one
 *       instance fewer ({@link StepScaleIn}) or {@code max(min, ⌈max(1, inService) × latest /
 *       target⌉)} ({@link ScaleIn.Tracking}), when that is less than desired; never below min.
 *   <li>Scheduled floors: min is {@link ScalingRules#minCapacityAt} (unless scheduled scaling is
 *       suspended). Desired below it scales out to it at once, with no cooldown gate and without
 *       starting the scale-out cooldown (Application Auto Scaling User Guide, "How scheduled
 *       scaling for Application Auto Scaling works": "If current capacity is less than the
 *       specified minimum capacity, Application Auto Scaling scales out ... to the specified
 *       minimum capacity"); a larger scale-out of target tracking in the same evaluation wins.
 *   <li>When both alarms could act in one evaluation the scale-out wins: Application Auto Scaling
 *       gives precedence to the policy that provides the largest capacity.
 *   <li>Cooldowns count from this engine's own last action in that direction; before the first
 *       action there is no cooldown. A desired count set directly (not by the engine) starts none.
 *   <li>Inside the scale-out cooldown a <em>larger</em> scale-out (more than the one that started
 *       the cooldown) goes through and restarts it: Application Auto Scaling API Reference, {@code
 *       TargetTrackingScalingPolicyConfiguration.ScaleOutCooldown}: the policy "won't increase the
 *       desired capacity again unless either a larger scale out is triggered or the cooldown period
 *       ends".
 *   <li>A scale-out ends the scale-in cooldown: same reference, {@code ScaleInCooldown}: the
 *       cooldown blocks scale-in requests, "however, if another alarm triggers a scale out policy
 *       during the cooldown period after a scale-in, application auto scaling scales out your
 *       scalable target immediately" ({@code StepScalingPolicyConfiguration.Cooldown} says the same
 *       for step scale-in). The scale-out is a new activity, so the scale-in that came before it no
 *       longer blocks the next one.
 * </ul>
 *
 * <p>Mutable, with one owner: not thread-safe (the local platform's autoscaler synchronises). A
 * little over 300 lines because the alarms, cooldowns, caps and the out-before-in precedence
 * interact and read best together.
 */
public final class ScalingEngine {
  private static final long NEVER = Long.MIN_VALUE;

  private final ScalingRules rules;
  private final double scheduleTimeScale;
  private AlarmState highAlarm = AlarmState.INSUFFICIENT_DATA;
  private AlarmState lowAlarm = AlarmState.INSUFFICIENT_DATA;
  private long lastScaleOutMs = NEVER;
  private long lastScaleInMs = NEVER;
  private int lastScaleOutDesired;

  public ScalingEngine(ScalingRules rules) {
    this(rules, 1.0);
  }

  /**
   * An engine whose scheduled floors run on a compressed day, as the local platform compresses
   * alarm periods: a floor's time of day is read at {@code now / scheduleTimeScale}, so a whole day
   * of floors passes in {@code 86400 × scheduleTimeScale} s (0.01: 864 s, 08:00 falls 288 s into
   * each such day). 1.0 is real time.
   */
  public ScalingEngine(ScalingRules rules, double scheduleTimeScale) {
    this.rules = Objects.requireNonNull(rules, "rules");
    if (!(scheduleTimeScale > 0) || Double.isInfinite(scheduleTimeScale)) {
      throw new IllegalArgumentException(
          "schedule time scale ("
              + scheduleTimeScale
              + ") must be a finite number above 0; 1.0 is real time");
    }
    this.scheduleTimeScale = scheduleTimeScale;
  }

  public ScalingRules rules() {
    return rules;
  }

  /**
   * An engine on {@code newRules} that keeps this one's alarm states and cooldown clocks, for a
   * scheduled action put or deleted while the endpoint runs (AWS keeps a target's cooldowns when
   * its scheduled actions change).
   */
  public ScalingEngine withRules(ScalingRules newRules) {
    ScalingEngine e = new ScalingEngine(newRules, scheduleTimeScale);
    e.highAlarm = highAlarm;
    e.lowAlarm = lowAlarm;
    e.lastScaleOutMs = lastScaleOutMs;
    e.lastScaleInMs = lastScaleInMs;
    e.lastScaleOutDesired = lastScaleOutDesired;
    return e;
  }

  /** The target tracking (scale-out) alarm's state at the last evaluation. */
  public AlarmState highAlarm() {
    return highAlarm;
  }

  /**
   * The scale-in alarm's state at the last evaluation; {@link AlarmState#INSUFFICIENT_DATA} when
   * the rules have no scale-in.
   */
  public AlarmState lowAlarm() {
    return lowAlarm;
  }

  /**
   * Evaluates both alarms at {@code nowMs} and decides.
   *
   * @param nowMs the time, epoch ms (any epoch-aligned clock)
   * @param datapoints where the periods are read
   * @param desired the desired instance count now
   * @param inService the instances in service now
   * @param suspended which directions are suspended
   * @return the decision; {@code desired} unchanged when nothing acts
   */
  public ScalingDecision evaluate(
      long nowMs, Datapoints datapoints, int desired, int inService, Suspension suspended) {
    Objects.requireNonNull(datapoints, "datapoints");
    Objects.requireNonNull(suspended, "suspended");
    long delayMs = checked(desired, inService, datapoints.publicationDelayMs());
    long visibleMs = nowMs - delayMs;
    TargetTracking t = rules.tracking();
    double[] high = read(datapoints, t, t.datapoints(), visibleMs);
    highAlarm =
        AlarmEvaluation.evaluate(
            high,
            t.datapoints(),
            t.datapoints(),
            v -> v > t.targetValue(),
            TreatMissingData.TARGET_TRACKING,
            highAlarm);
    double[] low = lowPeriods(datapoints, visibleMs).orElse(NO_ALARM);
    lowAlarm =
        low == NO_ALARM
            ? AlarmState.INSUFFICIENT_DATA
            : AlarmEvaluation.evaluate(
                low, lowDatapoints(), lowDatapoints(), this::lowBreaches, lowTreatment(), lowAlarm);

    int min =
        suspended.scheduledScaling()
            ? rules.minCapacity()
            : rules.minCapacityAt(scheduleTimeScale == 1.0 ? nowMs : scheduleClock(nowMs));
    String outWhy = "high alarm " + highAlarm;
    if (highAlarm == AlarmState.ALARM) {
      ScalingDecision out = scaleOut(nowMs, latest(high), desired, inService, suspended);
      if (out.changes() && out.desired() >= min) {
        lastScaleOutMs = nowMs;
        lastScaleOutDesired = out.desired();
        lastScaleInMs = NEVER; // a scale-out ends the scale-in cooldown
        return out;
      }
      outWhy = out.cause();
    }
    if (desired < min) {
      return new ScalingDecision(
          min,
          ScalingDecision.Direction.OUT,
          "scheduled floor: min capacity "
              + min
              + " in force at "
              + java.time.Instant.ofEpochMilli(nowMs)
              + "; desired "
              + desired
              + " is below it, so it scales out to it");
    }
    String inWhy = "low alarm " + lowAlarm;
    if (lowAlarm == AlarmState.ALARM) {
      ScalingDecision in = scaleIn(nowMs, min, latest(low), desired, inService, suspended);
      if (in.changes()) {
        lastScaleInMs = nowMs;
        return in;
      }
      inWhy = in.cause();
    }
    return new ScalingDecision(desired, ScalingDecision.Direction.NONE, outWhy + "; " + inWhy);
  }

  private ScalingDecision scaleOut(
      long nowMs, double latest, int desired, int inService, Suspension suspended) {
    TargetTracking t = rules.tracking();
    if (suspended.dynamicScalingOut()) {
      return none(desired, "high alarm ALARM but dynamic scale-out is suspended");
    }
    int base = Math.max(1, inService);
    int proposed = Math.min(rules.maxCapacity(), proportional(base, latest, t.targetValue()));
    if (!cooledDown(nowMs, lastScaleOutMs, t.scaleOutCooldown().toMillis())
        && proposed <= lastScaleOutDesired) {
      return none(
          desired,
          "high alarm ALARM inside the scale-out cooldown (until "
              + (lastScaleOutMs + t.scaleOutCooldown().toMillis())
              + " ms) and "
              + proposed
              + " is no larger than its scale-out to "
              + lastScaleOutDesired);
    }
    if (proposed <= desired) {
      return none(desired, "high alarm ALARM but desired " + desired + " already covers it");
    }
    return new ScalingDecision(
        proposed,
        ScalingDecision.Direction.OUT,
        String.format(
            Locale.ROOT,
            "target tracking: %s %s %.2f > target %.2f for %d periods; desired = ceil(%d x %.2f /"
                + " %.2f)",
            t.metric().cloudWatchName(),
            t.statistic().awsName(),
            latest,
            t.targetValue(),
            t.datapoints(),
            base,
            latest,
            t.targetValue()));
  }

  private ScalingDecision scaleIn(
      long nowMs, int min, double latest, int desired, int inService, Suspension suspended) {
    if (suspended.dynamicScalingIn()) {
      return none(desired, "low alarm ALARM but dynamic scale-in is suspended");
    }
    long cooldownMs =
        switch (rules.scaleIn()) {
          case StepScaleIn s -> s.cooldown().toMillis();
          case ScaleIn.Tracking tr -> tr.cooldown().toMillis();
          case ScaleIn.Disabled d -> 0;
        };
    if (!cooledDown(nowMs, lastScaleInMs, cooldownMs)) {
      return none(
          desired,
          "low alarm ALARM inside the scale-in cooldown (until "
              + (lastScaleInMs + cooldownMs)
              + " ms)");
    }
    if (desired <= min) {
      return none(desired, "low alarm ALARM but desired " + desired + " is at min capacity " + min);
    }
    return switch (rules.scaleIn()) {
      case StepScaleIn s -> stepIn(s, latest, desired);
      case ScaleIn.Tracking tr -> trackingIn(tr, min, latest, desired, inService);
      case ScaleIn.Disabled d -> none(desired, "scale-in disabled");
    };
  }

  private static ScalingDecision stepIn(StepScaleIn s, double latest, int desired) {
    if (Double.isNaN(latest)) {
      return new ScalingDecision(
          desired - 1,
          ScalingDecision.Direction.IN,
          String.format(
              Locale.ROOT,
              "step scale-in: %s %s has no datapoint in the alarm's range, treated as %s",
              s.metric().cloudWatchName(),
              s.statistic().awsName(),
              s.treatMissingData().awsName()));
    }
    return new ScalingDecision(
        desired - 1,
        ScalingDecision.Direction.IN,
        String.format(
            Locale.ROOT,
            "step scale-in: %s %s %.2f <= %.2f for %d periods",
            s.metric().cloudWatchName(),
            s.statistic().awsName(),
            latest,
            s.threshold(),
            s.datapoints()));
  }

  private ScalingDecision trackingIn(
      ScaleIn.Tracking tr, int min, double latest, int desired, int inService) {
    TargetTracking t = rules.tracking();
    int base = Math.max(1, inService);
    int proposed = Math.max(min, proportional(base, latest, t.targetValue()));
    if (proposed >= desired) {
      return none(desired, "low alarm ALARM but ceil(in-service x latest / target) >= desired");
    }
    return new ScalingDecision(
        proposed,
        ScalingDecision.Direction.IN,
        String.format(
            Locale.ROOT,
            "target tracking scale-in: %s %s %.2f < %.2f (%.2f x target %.2f) for %d periods;"
                + " desired = ceil(%d x %.2f / %.2f)",
            t.metric().cloudWatchName(),
            t.statistic().awsName(),
            latest,
            tr.thresholdRatio() * t.targetValue(),
            tr.thresholdRatio(),
            t.targetValue(),
            tr.datapoints(),
            base,
            latest,
            t.targetValue()));
  }

  private static long checked(int desired, int inService, long delayMs) {
    if (desired < 0 || inService < 0) {
      throw new IllegalArgumentException(
          "desired ("
              + desired
              + ") and in-service ("
              + inService
              + ") instance counts must be at least 0");
    }
    if (delayMs < 0) {
      throw new IllegalArgumentException(
          "metric publication delay (" + delayMs + " ms) must not be negative; 0 means none");
    }
    return delayMs;
  }

  /** Stands for "no scale-in alarm" (compared by identity). */
  private static final double[] NO_ALARM = new double[0];

  /** The low alarm's periods, or empty when the rules have no scale-in alarm. */
  private java.util.Optional<double[]> lowPeriods(Datapoints datapoints, long visibleMs) {
    TargetTracking t = rules.tracking();
    return switch (rules.scaleIn()) {
      case StepScaleIn s -> java.util.Optional.of(read(datapoints, s, s.datapoints(), visibleMs));
      case ScaleIn.Tracking tr ->
          java.util.Optional.of(read(datapoints, t, tr.datapoints(), visibleMs));
      case ScaleIn.Disabled d -> java.util.Optional.empty();
    };
  }

  /** The scale-in alarm's Evaluation Periods (= Datapoints to Alarm). */
  private int lowDatapoints() {
    return switch (rules.scaleIn()) {
      case StepScaleIn s -> s.datapoints();
      case ScaleIn.Tracking tr -> tr.datapoints();
      case ScaleIn.Disabled d -> 1;
    };
  }

  /** The scale-in alarm's treatment of missing data. */
  private TreatMissingData lowTreatment() {
    return rules.scaleIn().treatMissingData();
  }

  /** The newest real value of an evaluation range, NaN when every period is missing. */
  private static double latest(double[] range) {
    for (int i = range.length - 1; i >= 0; i--) {
      if (!Double.isNaN(range[i])) {
        return range[i];
      }
    }
    return Double.NaN;
  }

  private boolean lowBreaches(double value) {
    return switch (rules.scaleIn()) {
      case StepScaleIn s -> value <= s.threshold();
      case ScaleIn.Tracking tr -> {
        // The threshold is derived (0.9 x target) and Sums of per-second samples carry rounding
        // noise: a value within a billionth of the threshold counts as at it, i.e. not below.
        double threshold = tr.thresholdRatio() * rules.tracking().targetValue();
        yield value < threshold - 1e-9 * Math.max(1, Math.abs(threshold));
      }
      case ScaleIn.Disabled d -> false;
    };
  }

  /**
   * The periods of {@code alarm}'s evaluation range for {@code alarmDatapoints} datapoints ({@link
   * AlarmEvaluation#range}), the newest ending at the last period published by {@code visibleMs}.
   */
  private static double[] read(
      Datapoints datapoints, AlarmMetric alarm, int alarmDatapoints, long visibleMs) {
    Metric metric = alarm.metric();
    long periodMs = alarm.period().toMillis();
    int count = AlarmEvaluation.range(alarmDatapoints);
    long endMs = Math.floorDiv(visibleMs, periodMs) * periodMs;
    double[] values = datapoints.periods(metric, alarm.statistic(), periodMs, count, endMs);
    if (values == null || values.length != count) {
      throw new IllegalStateException(
          "Datapoints.periods returned "
              + (values == null ? "null" : values.length + " values")
              + " for "
              + count
              + " periods of "
              + metric.cloudWatchName()
              + "; an implementation must return exactly one value (or NaN) per period");
    }
    return values;
  }

  /** ⌈base × latest / target⌉, tolerant of floating-point noise just above an integer. */
  private static int proportional(int base, double latest, double target) {
    double exact = base * latest / target - 1e-9;
    return (int) Math.min(Integer.MAX_VALUE, Math.ceil(exact));
  }

  private long scheduleClock(long nowMs) {
    return Math.round(nowMs / scheduleTimeScale);
  }

  private static boolean cooledDown(long nowMs, long lastMs, long cooldownMs) {
    return lastMs == NEVER || nowMs - lastMs >= cooldownMs;
  }

  private static ScalingDecision none(int desired, String why) {
    return new ScalingDecision(desired, ScalingDecision.Direction.NONE, why);
  }
}
