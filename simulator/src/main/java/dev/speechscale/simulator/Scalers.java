package dev.speechscale.simulator;

import dev.speechscale.scaling.MetricStatistic;
import dev.speechscale.scaling.ScalingDecision;
import dev.speechscale.scaling.ScalingEngine;
import dev.speechscale.scaling.ScalingMetric;
import dev.speechscale.scaling.ScalingRules;
import dev.speechscale.scaling.Suspension;
import java.time.Duration;

/**
 * The decision procedure for each kind of {@link Policy}: every scaling policy is the shared {@link
 * ScalingEngine} (the same code the local platform's autoscaler runs) over the simulated metrics,
 * so the simulator cannot drift from the platform's semantics.
 */
final class Scalers {
  /** Standard-resolution metrics publish one-minute periods. */
  static final Duration STANDARD_PERIOD = Duration.ofSeconds(60);

  private Scalers() {}

  static Scaler of(Policy policy) {
    return switch (policy) {
      case Policy.Fixed fixed ->
          (nowMs, samples, desired, inService) -> new Scaler.Step(desired, "");
      case Policy.Planned p ->
          engine(
              ScalingRules.planned(
                  p.targetValue(),
                  p.scaleInThreshold(),
                  p.minInstances(),
                  p.maxInstances(),
                  p.scaleOutCooldown(),
                  p.scaleInCooldown()));
      case Policy.PublishedSizing p ->
          engine(
              ScalingRules.planned(
                  p.targetValue(),
                  p.scaleInThreshold(),
                  p.minInstances(),
                  p.maxInstances(),
                  p.scaleOutCooldown(),
                  p.scaleInCooldown()));
      case Policy.InvocationsTracking p ->
          engine(
              ScalingRules.targetTracking(
                  ScalingMetric.INVOCATIONS_PER_INSTANCE,
                  MetricStatistic.SUM,
                  STANDARD_PERIOD,
                  p.targetPerInstancePerMinute(),
                  p.minInstances(),
                  p.maxInstances(),
                  p.scaleOutCooldown(),
                  p.scaleInCooldown()));
      case Policy.Rules r -> engine(r.rules());
      case Policy.CpuTracking p ->
          engine(
              ScalingRules.targetTracking(
                  ScalingMetric.CPU_UTILIZATION,
                  MetricStatistic.AVERAGE,
                  STANDARD_PERIOD,
                  p.targetBusyPercent(),
                  p.minInstances(),
                  p.maxInstances(),
                  p.scaleOutCooldown(),
                  p.scaleInCooldown()));
    };
  }

  private static Scaler engine(ScalingRules rules) {
    ScalingEngine engine = new ScalingEngine(rules);
    return (nowMs, samples, desired, inService) -> {
      ScalingDecision d = engine.evaluate(nowMs, samples, desired, inService, Suspension.NONE);
      return new Scaler.Step(d.desired(), d.cause());
    };
  }
}
