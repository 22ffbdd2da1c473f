package dev.speechscale.simulator;

import dev.speechscale.platform.MetricQuery;
import dev.speechscale.scaling.ScaleInAlarm;
import dev.speechscale.scaling.ScalingRules;
import java.time.Duration;
import java.util.Locale;

/**
 * A scaling policy to simulate. Each is a small value; to compare another, add a record here and
 * its case in {@link Scalers} (the compiler lists every switch that must learn it).
 */
public sealed interface Policy
    permits Policy.Planned,
        Policy.PublishedSizing,
        Policy.InvocationsTracking,
        Policy.CpuTracking,
        Policy.Fixed,
        Policy.Rules {

  /** The name used on the command line and in reports ({@code plan}, {@code fixed:4}, ...). */
  String name();

  /** One line with the numbers that define it. */
  String description();

  /** Instances in service at time 0 (the fleet starts warm at its floor). */
  int initialInstances();

  /** The most instances it may ask for. */
  int maxInstances();

  /**
   * The plan's thresholds, cooldowns and fleet bounds: what a policy that runs the plan's rules
   * ({@link ScalingRules#planned}) needs.
   */
  interface PlanThresholds {
    int minInstances();

    int maxInstances();

    double targetValue();

    double scaleInThreshold();

    Duration scaleOutCooldown();

    Duration scaleInCooldown();

    /** The step scale-in policy's alarm. */
    ScaleInAlarm scaleInAlarm();

    /** The plan's rules with these numbers. */
    default ScalingRules rules() {
      return ScalingRules.planned(
          targetValue(),
          scaleInThreshold(),
          minInstances(),
          maxInstances(),
          scaleOutCooldown(),
          scaleInCooldown(),
          scaleInAlarm());
    }
  }

  /**
   * The plan artifact's policy: target tracking on ConcurrentRequestsPerModel (Maximum, 10 s, 3
   * datapoints, scale-in disabled) plus step scale-in on {@code scaleInAlarm} (3 periods).
   *
   * @param name {@code plan}, or {@code plan:<alarm>} when the alarm is named on the command line
   */
  record Planned(
      String name,
      int minInstances,
      int maxInstances,
      double targetValue,
      double scaleInThreshold,
      Duration scaleOutCooldown,
      Duration scaleInCooldown,
      ScaleInAlarm scaleInAlarm)
      implements Policy, PlanThresholds {
    public Planned {
      checkBounds("plan", minInstances, maxInstances);
      java.util.Objects.requireNonNull(scaleInAlarm, "scaleInAlarm");
    }

    @Override
    public String description() {
      return String.format(
          Locale.ROOT,
          "the plan: %d..%d instances, "
              + MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName()
              + " Maximum > %.4g (10 s x 3),"
              + " step scale-in at %s <= %.4g (%d s x 3), cooldowns %d s out / %d s in",
          minInstances,
          maxInstances,
          targetValue,
          scaleInAlarm.statistic().awsName(),
          scaleInThreshold,
          scaleInAlarm.period().toSeconds(),
          scaleOutCooldown.toSeconds(),
          scaleInCooldown.toSeconds());
    }

    @Override
    public int initialInstances() {
      return minInstances;
    }
  }

  /**
   * The published tool's policy: the same thresholds and cooldowns as the plan, but its fleet
   * ceiling {@code ⌈λ_peak · S_mean / C_scale_max⌉}, which treats a serial instance as serving
   * C_scale_max requests in parallel.
   */
  record PublishedSizing(
      int minInstances,
      int maxInstances,
      double targetValue,
      double scaleInThreshold,
      Duration scaleOutCooldown,
      Duration scaleInCooldown,
      String sizing,
      ScaleInAlarm scaleInAlarm)
      implements Policy, PlanThresholds {
    public PublishedSizing {
      checkBounds("naive", minInstances, maxInstances);
    }

    @Override
    public String name() {
      return "naive";
    }

    @Override
    public String description() {
      return String.format(
          Locale.ROOT,
          "the published sizing: %d..%d instances (%s), otherwise the plan's policy (target"
              + " %.4g, scale-in %.4g, cooldowns %d s / %d s)",
          minInstances,
          maxInstances,
          sizing,
          targetValue,
          scaleInThreshold,
          scaleOutCooldown.toSeconds(),
          scaleInCooldown.toSeconds());
    }

    @Override
    public int initialInstances() {
      return minInstances;
    }
  }

  /**
   * SageMaker's predefined InvocationsPerInstance target tracking, as a user copies it from AWS's
   * guidance ({@code target = max RPS per instance × 0.5 safety factor × 60}, per minute, scale-in
   * enabled, default cooldowns).
   */
  record InvocationsTracking(
      int minInstances,
      int maxInstances,
      double targetPerInstancePerMinute,
      Duration scaleOutCooldown,
      Duration scaleInCooldown,
      String assumption)
      implements Policy {
    public InvocationsTracking {
      checkBounds("invocations", minInstances, maxInstances);
      checkTarget("invocations", targetPerInstancePerMinute);
    }

    @Override
    public String name() {
      return "invocations";
    }

    @Override
    public String description() {
      return String.format(
          Locale.ROOT,
          "InvocationsPerInstance target tracking at %.4g per minute (%s), %d..%d instances,"
              + " cooldowns %d s out / %d s in",
          targetPerInstancePerMinute,
          assumption,
          minInstances,
          maxInstances,
          scaleOutCooldown.toSeconds(),
          scaleInCooldown.toSeconds());
    }

    @Override
    public int initialInstances() {
      return minInstances;
    }
  }

  /** CPU-utilisation-style target tracking: busy slots in percent, Average over 60 s. */
  record CpuTracking(
      int minInstances,
      int maxInstances,
      double targetBusyPercent,
      Duration scaleOutCooldown,
      Duration scaleInCooldown)
      implements Policy {
    public CpuTracking {
      checkBounds("cpu", minInstances, maxInstances);
      checkTarget("cpu", targetBusyPercent);
      if (targetBusyPercent > 100) {
        throw new SimulatorException(
            "cpu: target (" + targetBusyPercent + " %) must be at most 100 %");
      }
    }

    @Override
    public String name() {
      return "cpu";
    }

    @Override
    public String description() {
      return String.format(
          Locale.ROOT,
          "CPU-style utilisation tracking at %.4g %% busy (Average, 60 s), %d..%d instances,"
              + " cooldowns %d s out / %d s in",
          targetBusyPercent,
          minInstances,
          maxInstances,
          scaleOutCooldown.toSeconds(),
          scaleInCooldown.toSeconds());
    }

    @Override
    public int initialInstances() {
      return minInstances;
    }
  }

  /** A fixed fleet: no scaling at all. */
  record Fixed(int instances) implements Policy {
    public Fixed {
      if (instances < 1) {
        throw new SimulatorException(
            "fixed:" + instances + ": a fixed fleet needs at least 1 instance");
      }
    }

    @Override
    public String name() {
      return "fixed:" + instances;
    }

    @Override
    public String description() {
      return "a fixed fleet of " + instances + (instances == 1 ? " instance" : " instances");
    }

    @Override
    public int initialInstances() {
      return instances;
    }

    @Override
    public int maxInstances() {
      return instances;
    }
  }

  /**
   * Any rules the shared engine accepts, under a name of the caller's: e.g. exactly what a local
   * endpoint deploys, time-scaled periods included, to compare a replay against.
   */
  record Rules(String name, dev.speechscale.scaling.ScalingRules rules) implements Policy {
    public Rules {
      java.util.Objects.requireNonNull(rules, "rules");
      if (name == null || name.isBlank()) {
        throw new SimulatorException("a policy needs a name for the reports");
      }
    }

    @Override
    public String description() {
      return "rules: " + rules;
    }

    @Override
    public int initialInstances() {
      return rules.minCapacity();
    }

    @Override
    public int maxInstances() {
      return rules.maxCapacity();
    }
  }

  private static void checkBounds(String name, int min, int max) {
    if (min < 1 || max < min) {
      throw new SimulatorException(
          name + ": instances " + min + ".." + max + " must satisfy 1 <= min <= max");
    }
  }

  private static void checkTarget(String name, double target) {
    if (!(target > 0) || Double.isInfinite(target)) {
      throw new SimulatorException(name + ": target (" + target + ") must be finite and positive");
    }
  }
}
