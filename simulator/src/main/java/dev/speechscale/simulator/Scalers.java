package dev.speechscale.simulator;

import dev.speechscale.platform.MetricQuery.Metric;
import dev.speechscale.scaling.MetricStatistic;
import dev.speechscale.scaling.ScaleIn;
import dev.speechscale.scaling.ScalingDecision;
import dev.speechscale.scaling.ScalingEngine;
import dev.speechscale.scaling.ScalingRules;
import dev.speechscale.scaling.StepScaleIn;
import dev.speechscale.scaling.Suspension;
import dev.speechscale.scaling.TargetTracking;
import java.time.Duration;
import java.util.Optional;

/**
 * The decision procedure for each kind of {@link Policy}: every scaling policy is the shared {@link
 * ScalingEngine} (the same code the local platform's autoscaler runs) over the simulated metrics,
 * so the simulator cannot drift from the platform's semantics.
 */
final class Scalers {
  /** Standard-resolution metrics publish one-minute periods. */
  static final Duration STANDARD_PERIOD = Duration.ofSeconds(60);

  private Scalers() {}

  /**
   * The longest alarm evaluation window of {@code policy}'s rules, in seconds: for each alarm, its
   * period × datapoints plus the publication delay rounded up to whole periods (the newest period
   * an evaluation at t reads ends at ⌊(t − delay) / period⌋ × period); 0 for a fixed fleet.
   */
  static long longestWindowSeconds(Policy policy, Duration metricPublicationDelay) {
    Optional<ScalingRules> found = rules(policy);
    if (found.isEmpty()) {
      return 0;
    }
    ScalingRules rules = found.get();
    TargetTracking t = rules.tracking();
    long longest = windowMs(t.period(), t.datapoints(), metricPublicationDelay);
    long in =
        switch (rules.scaleIn()) {
          case StepScaleIn s -> windowMs(s.period(), s.datapoints(), metricPublicationDelay);
          case ScaleIn.Tracking tr -> windowMs(t.period(), tr.datapoints(), metricPublicationDelay);
          case ScaleIn.Disabled d -> 0;
        };
    return Math.ceilDiv(Math.max(longest, in), 1000);
  }

  private static long windowMs(Duration period, int datapoints, Duration delay) {
    long periodMs = Math.max(1000, period.toMillis());
    return periodMs * datapoints + Math.ceilDiv(delay.toMillis(), periodMs) * periodMs;
  }

  static Scaler of(Policy policy) {
    return rules(policy)
        .map(Scalers::engine)
        .orElse((nowMs, samples, desired, inService) -> new Scaler.Step(desired, ""));
  }

  /** The policy's rules as the shared engine runs them; empty for a fixed fleet. */
  private static Optional<ScalingRules> rules(Policy policy) {
    return Optional.ofNullable(
        switch (policy) {
          case Policy.Fixed fixed -> null;
          case Policy.Planned p -> p.rules();
          case Policy.PublishedSizing p -> p.rules();
          case Policy.InvocationsTracking p ->
              ScalingRules.targetTracking(
                  Metric.INVOCATIONS_PER_INSTANCE,
                  MetricStatistic.SUM,
                  STANDARD_PERIOD,
                  p.targetPerInstancePerMinute(),
                  p.minInstances(),
                  p.maxInstances(),
                  p.scaleOutCooldown(),
                  p.scaleInCooldown());
          case Policy.Rules r -> r.rules();
          case Policy.CpuTracking p ->
              ScalingRules.targetTracking(
                  Metric.CPU_UTILIZATION,
                  MetricStatistic.AVERAGE,
                  STANDARD_PERIOD,
                  p.targetBusyPercent(),
                  p.minInstances(),
                  p.maxInstances(),
                  p.scaleOutCooldown(),
                  p.scaleInCooldown());
        });
  }

  private static Scaler engine(ScalingRules rules) {
    ScalingEngine engine = new ScalingEngine(rules);
    return (nowMs, samples, desired, inService) -> {
      ScalingDecision d = engine.evaluate(nowMs, samples, desired, inService, Suspension.NONE);
      return new Scaler.Step(d.desired(), d.cause());
    };
  }
}
