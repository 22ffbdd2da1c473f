package dev.speechscale.scaling;

import dev.speechscale.platform.MetricQuery.Metric;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The scaling rules of one endpoint: capacity bounds plus the policies, with Application Auto
 * Scaling's semantics ({@link ScalingEngine} applies them).
 *
 * <h2>The two shapes</h2>
 *
 * <ul>
 *   <li>{@link #planned}: what a SpeechScale plan deploys. Target tracking on
 *       ConcurrentRequestsPerModel, Maximum over 10 s periods, 3 datapoints above target, {@code
 *       DisableScaleIn}; plus a step scale-in policy on a {@link ScaleInAlarm} (the Maximum over 10
 *       s periods, or the Average over 60 s periods as before issue 35), 3 periods at or below the
 *       scale-in threshold, one instance at a time.
 *   <li>{@link #targetTracking}: AWS target tracking with scale-in enabled, the policy a user
 *       copies (InvocationsPerInstance, CPU-style utilisation). Application Auto Scaling creates
 *       two alarms for it: a high alarm, {@value #TRACKING_HIGH_DATAPOINTS} consecutive periods
 *       above the target, and a low alarm, {@value #TRACKING_LOW_DATAPOINTS} consecutive periods
 *       below {@value #TRACKING_LOW_THRESHOLD_RATIO} × target.
 * </ul>
 *
 * <h2>Where the target tracking numbers come from</h2>
 *
 * <ul>
 *   <li>The low alarm sits 10 % below the target: the Application Auto Scaling User Guide, "How
 *       target tracking scaling for Application Auto Scaling works"
 *       (docs.aws.amazon.com/autoscaling/application/userguide/target-tracking-scaling-policy-overview.html):
 *       the policy removes capacity only when utilisation reaches "a threshold sufficiently below
 *       the target value (usually more than 10% lower)".
 *   <li>The datapoint counts (3 for the high alarm, 15 for the low alarm, one-minute periods for
 *       standard metrics) we did not find in AWS's documentation; they are what Application Auto
 *       Scaling creates, as the CloudWatch console shows its {@code TargetTracking-…-AlarmHigh} and
 *       {@code -AlarmLow} alarms in published walkthroughs, e.g. for ECS services "CPUUtilization
 *       &gt; 30 for 3 datapoints within 3 minutes" and "CPUUtilization &lt; 27 for 15 datapoints
 *       within 15 minutes" (27 = 0.9 × 30), "&gt; 50" with "&lt; 45". EC2 Auto Scaling groups
 *       create a lower low alarm (about 0.7 × target, e.g. 28 for 40); that is not Application Auto
 *       Scaling and not modelled here.
 *   <li>Default cooldowns for SageMaker endpoint variants: 300 s for scale-in and scale-out ({@link
 *       #SAGEMAKER_DEFAULT_COOLDOWN}): Application Auto Scaling API Reference, {@code
 *       TargetTrackingScalingPolicyConfiguration} ({@code ScaleInCooldown} / {@code
 *       ScaleOutCooldown}: "a default value of 300 for … Amazon SageMaker endpoint variants").
 * </ul>
 *
 * @param minCapacity fewest instances (0 allowed: scale to zero)
 * @param maxCapacity most instances
 * @param tracking the target tracking policy (scale-out)
 * @param scaleIn how capacity comes down
 * @param floors scheduled minimum-capacity floors (Application Auto Scaling scheduled actions),
 *     sorted by time of day, none by default; see {@link #minCapacityAt}
 */
public record ScalingRules(
    int minCapacity,
    int maxCapacity,
    TargetTracking tracking,
    ScaleIn scaleIn,
    List<ScheduledFloor> floors) {
  /** Period of the planned tracking alarm (high-resolution ConcurrentRequestsPerModel). */
  public static final Duration PLANNED_TRACKING_PERIOD = Duration.ofSeconds(10);

  /** Datapoints of the planned tracking alarm. */
  public static final int PLANNED_TRACKING_DATAPOINTS = 3;

  /**
   * Period of the planned step scale-in alarm on the Average ({@link ScaleInAlarm#AVERAGE_60S}).
   */
  public static final Duration PLANNED_SCALE_IN_PERIOD = Duration.ofSeconds(60);

  /** Datapoints of the planned step scale-in alarm (either {@link ScaleInAlarm}). */
  public static final int PLANNED_SCALE_IN_DATAPOINTS = 3;

  /** Datapoints of AWS target tracking's high alarm. */
  public static final int TRACKING_HIGH_DATAPOINTS = 3;

  /** Datapoints of AWS target tracking's low alarm. */
  public static final int TRACKING_LOW_DATAPOINTS = 15;

  /** AWS target tracking's low-alarm threshold as a share of the target. */
  public static final double TRACKING_LOW_THRESHOLD_RATIO = 0.9;

  /** Application Auto Scaling's default cooldown (both directions) for SageMaker variants. */
  public static final Duration SAGEMAKER_DEFAULT_COOLDOWN = Duration.ofSeconds(300);

  /** Rules without scheduled floors. */
  public ScalingRules(int minCapacity, int maxCapacity, TargetTracking tracking, ScaleIn scaleIn) {
    this(minCapacity, maxCapacity, tracking, scaleIn, List.of());
  }

  public ScalingRules {
    Objects.requireNonNull(tracking, "tracking");
    Objects.requireNonNull(scaleIn, "scaleIn");
    floors = sortedFloors(floors, maxCapacity);
    if (minCapacity < 0) {
      throw new IllegalArgumentException(
          "min capacity (" + minCapacity + ") must be at least 0; set it to 1 or more");
    }
    if (maxCapacity < Math.max(1, minCapacity)) {
      throw new IllegalArgumentException(
          "max capacity ("
              + maxCapacity
              + ") must be at least 1 and at least min capacity ("
              + minCapacity
              + "); raise max or lower min");
    }
  }

  /**
   * What a SpeechScale plan deploys: target tracking on ConcurrentRequestsPerModel, Maximum over 10
   * s periods, 3 datapoints, {@code DisableScaleIn}, the scale-out cooldown; plus step scale-in on
   * {@code alarm}'s statistic and period, 3 periods at or below {@code scaleInThreshold} → −1
   * instance, the scale-in cooldown ({@link ScaleInAlarm#MAXIMUM_10S} cannot undo a fresh
   * scale-out; {@link ScaleInAlarm#AVERAGE_60S} is the pair plans deployed before issue 35).
   */
  public static ScalingRules planned(
      double targetValue,
      double scaleInThreshold,
      int min,
      int max,
      Duration scaleOutCooldown,
      Duration scaleInCooldown,
      ScaleInAlarm alarm) {
    Objects.requireNonNull(alarm, "alarm");
    return new ScalingRules(
        min,
        max,
        new TargetTracking(
            Metric.CONCURRENT_REQUESTS_PER_MODEL,
            MetricStatistic.MAXIMUM,
            PLANNED_TRACKING_PERIOD,
            PLANNED_TRACKING_DATAPOINTS,
            targetValue,
            scaleOutCooldown),
        new StepScaleIn(
            Metric.CONCURRENT_REQUESTS_PER_MODEL,
            alarm.statistic(),
            alarm.period(),
            alarm.datapoints(),
            scaleInThreshold,
            scaleInCooldown));
  }

  /**
   * AWS target tracking with scale-in enabled, the default a user copies: a high alarm of {@value
   * #TRACKING_HIGH_DATAPOINTS} periods above {@code targetValue} and a low alarm of {@value
   * #TRACKING_LOW_DATAPOINTS} periods below {@value #TRACKING_LOW_THRESHOLD_RATIO} × target, both
   * on {@code statistic} of {@code metric} over {@code period} (60 s for standard metrics).
   * SageMaker's defaults for both cooldowns are {@link #SAGEMAKER_DEFAULT_COOLDOWN}.
   */
  public static ScalingRules targetTracking(
      Metric metric,
      MetricStatistic statistic,
      Duration period,
      double targetValue,
      int min,
      int max,
      Duration scaleOutCooldown,
      Duration scaleInCooldown) {
    return new ScalingRules(
        min,
        max,
        new TargetTracking(
            metric, statistic, period, TRACKING_HIGH_DATAPOINTS, targetValue, scaleOutCooldown),
        new ScaleIn.Tracking(
            TRACKING_LOW_DATAPOINTS, TRACKING_LOW_THRESHOLD_RATIO, scaleInCooldown));
  }

  /**
   * The same rules with every alarm period multiplied by {@code factor} (at least 1 s each, rounded
   * to the millisecond), for the local platform's compressed-time demos. Cooldowns, thresholds and
   * datapoint counts are unchanged.
   */
  public ScalingRules timeScaled(double factor) {
    if (!(factor > 0) || Double.isInfinite(factor)) {
      throw new IllegalArgumentException(
          "time scale (" + factor + ") must be a finite number above 0; 1.0 is real time");
    }
    ScaleIn in =
        switch (scaleIn) {
          case StepScaleIn step -> step.withPeriod(scaled(step.period(), factor));
          case ScaleIn.Tracking t -> t;
          case ScaleIn.Disabled d -> d;
        };
    return new ScalingRules(
        minCapacity,
        maxCapacity,
        tracking.withPeriod(scaled(tracking.period(), factor)),
        in,
        floors);
  }

  /** The same rules with these scheduled floors (any order; times must differ). */
  public ScalingRules withFloors(List<ScheduledFloor> newFloors) {
    return new ScalingRules(minCapacity, maxCapacity, tracking, scaleIn, newFloors);
  }

  /**
   * The minimum capacity in force at {@code nowMs}: the {@code minCapacity} of the latest floor at
   * or before the UTC time of day {@code floorMod(nowMs / 1000, 86400)}, the previous day's last
   * floor before the day's first, and never below {@link #minCapacity()}; {@link #minCapacity()}
   * without floors. (Application Auto Scaling's scheduled action sets MinCapacity at its time and
   * it stays until the next action changes it.)
   */
  public int minCapacityAt(long nowMs) {
    if (floors.isEmpty()) {
      return minCapacity;
    }
    long secondOfDay = Math.floorMod(Math.floorDiv(nowMs, 1000), ScheduledFloor.DAY_SECONDS);
    ScheduledFloor current = floors.getLast();
    for (ScheduledFloor f : floors) {
      if (f.secondOfDay() <= secondOfDay) {
        current = f;
      }
    }
    return Math.max(minCapacity, current.minCapacity());
  }

  private static List<ScheduledFloor> sortedFloors(List<ScheduledFloor> floors, int max) {
    Objects.requireNonNull(floors, "floors");
    List<ScheduledFloor> sorted = new ArrayList<>(floors);
    sorted.forEach(f -> Objects.requireNonNull(f, "scheduled floor"));
    sorted.sort(Comparator.comparingInt(ScheduledFloor::secondOfDay));
    for (int i = 0; i < sorted.size(); i++) {
      ScheduledFloor f = sorted.get(i);
      if (i > 0 && sorted.get(i - 1).secondOfDay() == f.secondOfDay()) {
        throw new IllegalArgumentException(
            "two scheduled floors at " + f.hhmm() + " UTC; keep one floor per time of day");
      }
      if (f.minCapacity() > max) {
        throw new IllegalArgumentException(
            "scheduled floor at "
                + f.hhmm()
                + " min capacity ("
                + f.minCapacity()
                + ") is above max capacity ("
                + max
                + "); Application Auto Scaling refuses a minimum above the maximum: lower the"
                + " floor or raise max");
      }
    }
    return List.copyOf(sorted);
  }

  /** Whether the target tracking policy is deployed with {@code DisableScaleIn}. */
  public boolean disableScaleIn() {
    return !(scaleIn instanceof ScaleIn.Tracking);
  }

  private static Duration scaled(Duration period, double factor) {
    return Duration.ofMillis(Math.max(1000, Math.round(period.toMillis() * factor)));
  }
}
