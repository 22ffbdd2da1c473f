package dev.speechscale.platform.local;

import dev.speechscale.artifacts.ScaleInAlarmChoice;
import dev.speechscale.artifacts.ScalingMetricChoice;
import dev.speechscale.artifacts.ScheduledFloorEntry;
import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.MetricQuery.Metric;
import dev.speechscale.platform.SuspendedState;
import dev.speechscale.scaling.AlarmState;
import dev.speechscale.scaling.MetricStatistic;
import dev.speechscale.scaling.ScaleIn;
import dev.speechscale.scaling.ScaleInAlarm;
import dev.speechscale.scaling.ScalingDecision;
import dev.speechscale.scaling.ScalingEngine;
import dev.speechscale.scaling.ScalingRules;
import dev.speechscale.scaling.ScheduledFloor;
import dev.speechscale.scaling.StepScaleIn;
import dev.speechscale.scaling.Suspension;
import dev.speechscale.scaling.TreatMissingData;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The local Application Auto Scaling: the two policies a plan deploys ({@link
 * ScalingRules#planned}), evaluated on the {@link MetricStore} by the shared {@link ScalingEngine}
 * (module {@code scaling}, where the semantics are stated and tested), so the local platform and
 * the simulator cannot drift apart.
 *
 * <p>This class is the adapter: it reads the metric store through {@link MetricStoreDatapoints},
 * holds the suspended flags, applies a decision to the {@link Capacity} and keeps the activity log.
 * The local platform may compress periods (time scale) for tests and demos; the policy reports the
 * periods it really uses.
 */
final class Autoscaler {
  /**
   * The deployed policies, in real time: the planned {@link ScalingRules} (target tracking with
   * DisableScaleIn plus step scale-in, or for {@code scaling_metric: invocations_per_instance}
   * target tracking on InvocationsPerInstance with its own scale-in), with the accessors the status
   * view reports.
   *
   * @param rules the rules, periods already time-scaled
   * @param timeScale the local platform's time scale: the scheduled floors' day is compressed by it
   *     too (a day of floors passes in 86400 × timeScale s, {@link ScalingEngine#ScalingEngine(
   *     ScalingRules, double)}), while their times of day stay those deployed
   */
  record Policy(ScalingRules rules, double timeScale) {
    Policy {
      boolean invocations =
          rules.scaleIn() instanceof ScaleIn.Tracking
              && rules.tracking().metric() == Metric.INVOCATIONS_PER_INSTANCE;
      if (!(rules.scaleIn() instanceof StepScaleIn) && !invocations) {
        throw new IllegalArgumentException(
            "the local platform deploys a plan's rules (target tracking plus step scale-in, or"
                + " InvocationsPerInstance target tracking scaling in itself), not "
                + rules.scaleIn()
                + "; build them with ScalingRules.planned or Policy.of");
      }
    }

    Policy(ScalingRules rules) {
      this(rules, 1.0);
    }

    /**
     * AWS's periods multiplied by {@code timeScale} (at least one second each), with scheduled
     * minimum-capacity floors (UTC times of day, compressed day).
     */
    static Policy of(
        double target,
        double scaleIn,
        int min,
        int max,
        int outCooldownS,
        int inCooldownS,
        ScaleInAlarmChoice alarm,
        List<ScheduledFloorEntry> floors,
        ScalingMetricChoice metric,
        double timeScale) {
      ScalingRules rules =
          metric == ScalingMetricChoice.INVOCATIONS_PER_INSTANCE
              // SageMakerVariantInvocationsPerInstance: Sum over 60 s, scale-in enabled, no step
              ? ScalingRules.targetTracking(
                  Metric.INVOCATIONS_PER_INSTANCE,
                  MetricStatistic.SUM,
                  INVOCATIONS_PERIOD,
                  target,
                  min,
                  max,
                  Duration.ofSeconds(outCooldownS),
                  Duration.ofSeconds(inCooldownS))
              : ScalingRules.planned(
                  target,
                  scaleIn,
                  min,
                  max,
                  Duration.ofSeconds(outCooldownS),
                  Duration.ofSeconds(inCooldownS),
                  ScaleInAlarm.ofLabel(alarm.label()));
      return new Policy(rules.withFloors(floors(floors)).timeScaled(timeScale), timeScale);
    }

    /** InvocationsPerInstance's period (a standard-resolution metric). */
    static final Duration INVOCATIONS_PERIOD = Duration.ofSeconds(60);

    /** Whether target tracking scales in itself (InvocationsPerInstance; no step policy). */
    boolean tracksScaleIn() {
      return rules.scaleIn() instanceof ScaleIn.Tracking;
    }

    /** The wire floors as the engine's. */
    static List<ScheduledFloor> floors(List<ScheduledFloorEntry> entries) {
      return entries.stream()
          .map(e -> new ScheduledFloor(e.secondOfDay(), e.minCapacity()))
          .toList();
    }

    /** The deployed floors, as the wire spells them. */
    List<ScheduledFloorEntry> floorEntries() {
      return rules.floors().stream()
          .map(f -> new ScheduledFloorEntry(f.hhmm(), f.minCapacity()))
          .toList();
    }

    private StepScaleIn step() {
      return (StepScaleIn) rules.scaleIn();
    }

    /** Target tracking target (Maximum). */
    double targetValue() {
      return rules.tracking().targetValue();
    }

    /**
     * Scale-in alarm threshold (in the scale-in alarm's statistic); with target tracking's own
     * scale-in, its low alarm's (the target × 0.9).
     */
    double scaleInThreshold() {
      return rules.scaleIn() instanceof ScaleIn.Tracking t
          ? targetValue() * t.thresholdRatio()
          : step().threshold();
    }

    int minCapacity() {
      return rules.minCapacity();
    }

    int maxCapacity() {
      return rules.maxCapacity();
    }

    Duration scaleOutCooldown() {
      return rules.tracking().scaleOutCooldown();
    }

    Duration scaleInCooldown() {
      return rules.scaleIn() instanceof ScaleIn.Tracking t ? t.cooldown() : step().cooldown();
    }

    /** The tracking alarm's period (10 s, scaled). */
    Duration trackingPeriod() {
      return rules.tracking().period();
    }

    /** Datapoints that must breach (3). */
    int trackingEvaluationPeriods() {
      return rules.tracking().datapoints();
    }

    /** The scale-in alarm's statistic (the plan's scale_in_alarm: Maximum or Average). */
    MetricStatistic scaleInStatistic() {
      return tracksScaleIn() ? rules.tracking().statistic() : step().statistic();
    }

    /** The scale-in alarm's period (10 s or 60 s, scaled). */
    Duration scaleInPeriod() {
      return tracksScaleIn() ? rules.tracking().period() : step().period();
    }

    /** Datapoints that must breach (3). */
    int scaleInEvaluationPeriods() {
      return rules.scaleIn() instanceof ScaleIn.Tracking t ? t.datapoints() : step().datapoints();
    }

    /**
     * How the scale-in alarm treats a period without data: the step policy's (the plan deploys
     * notBreaching), or target tracking's low alarm's (missing) when it scales in itself.
     */
    TreatMissingData scaleInTreatMissingData() {
      return rules.scaleIn().treatMissingData();
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
  private ScalingEngine engine;
  private final java.util.Map<String, ScheduledFloor> floors = new java.util.TreeMap<>();
  private final MetricStoreDatapoints datapoints;
  private final Capacity capacity;
  private final List<Activity> activities = new ArrayList<>();
  private SuspendedState suspended = SuspendedState.NONE;

  Autoscaler(Policy policy, MetricStore metrics, Capacity capacity) {
    this.policy = policy;
    this.engine = new ScalingEngine(policy.rules(), policy.timeScale());
    policy.rules().floors().forEach(f -> floors.put(deployedName(f), f));
    this.datapoints = new MetricStoreDatapoints(metrics);
    this.capacity = capacity;
  }

  Policy policy() {
    return policy;
  }

  /** Evaluates both alarms at {@code now} and acts on them. */
  synchronized void evaluate(Instant now) {
    int desired = capacity.desired();
    ScalingDecision decision =
        engine.evaluate(
            now.toEpochMilli(),
            datapoints,
            desired,
            capacity.inService(),
            new Suspension(
                suspended.dynamicScalingIn(),
                suspended.dynamicScalingOut(),
                suspended.scheduledScaling()));
    if (decision.changes()) {
      capacity.setDesired(decision.desired(), decision.cause());
      activities.add(new Activity(now, desired, decision.desired(), decision.cause()));
    }
  }

  /** The name a deployed floor's scheduled action gets: {@code floor-HHMM}. */
  static String deployedName(ScheduledFloor f) {
    return "floor-" + f.hhmm().replace(":", "");
  }

  /** The scheduled floors in force, by name. */
  synchronized List<Views.Floor> floors() {
    return floors.entrySet().stream()
        .map(e -> new Views.Floor(e.getKey(), e.getValue().hhmm(), e.getValue().minCapacity()))
        .toList();
  }

  /**
   * Creates or replaces the floor named {@code floor.name()}; the engine keeps its alarms and
   * cooldowns. Refuses (IllegalArgumentException, the rules' message) a floor above max capacity or
   * at the time of another floor.
   */
  synchronized void putFloor(Views.Floor floor) {
    if (floor.name() == null || floor.name().isBlank()) {
      throw new IllegalArgumentException("a scheduled floor needs a name");
    }
    java.util.Map<String, ScheduledFloor> next = new java.util.TreeMap<>(floors);
    next.put(floor.name(), ScheduledFloor.at(floor.at(), floor.minCapacity()));
    engine = engine.withRules(engine.rules().withFloors(List.copyOf(next.values())));
    floors.clear();
    floors.putAll(next);
  }

  /** Deletes the floor {@code name}; refuses a name that is not there. */
  synchronized void deleteFloor(String name) {
    if (!floors.containsKey(name)) {
      throw new IllegalArgumentException(
          "no scheduled action " + name + "; the scheduled floors are " + floors.keySet());
    }
    floors.remove(name);
    engine = engine.withRules(engine.rules().withFloors(List.copyOf(floors.values())));
  }

  synchronized SuspendedState suspended() {
    return suspended;
  }

  synchronized void setSuspended(SuspendedState state) {
    this.suspended = state;
  }

  synchronized Alarm.AlarmState highAlarm() {
    return platform(engine.highAlarm());
  }

  synchronized Alarm.AlarmState lowAlarm() {
    return platform(engine.lowAlarm());
  }

  private static Alarm.AlarmState platform(AlarmState state) {
    return switch (state) {
      case OK -> Alarm.AlarmState.OK;
      case ALARM -> Alarm.AlarmState.ALARM;
      case INSUFFICIENT_DATA -> Alarm.AlarmState.INSUFFICIENT_DATA;
    };
  }

  synchronized List<Activity> activities() {
    return List.copyOf(activities);
  }
}
