package dev.speechscale.platform.aws;

import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code speech-infra status --json --platform aws}: the facts the text status prints, as one JSON
 * object whose field names docs/speech-infra.md lists (snake_case, absent values {@code null}). The
 * fields both platforms share come first: {@code platform}, {@code endpoint}, {@code status},
 * {@code desired_instances}, {@code in_service_instances}, {@code instance_type}, {@code
 * scaling.{attached, reason, resource_id, min_instances, max_instances, suspended}}; then what
 * SageMaker and Application Auto Scaling report: {@code observed_at}, {@code scaling.policies} and
 * {@code scaling.alarms}.
 */
final class AwsStatusJson {
  private AwsStatusJson() {}

  static final JsonMapper JSON = JsonMapper.builder().build();

  static ObjectNode of(EndpointDescription d, ScalingState s) {
    ObjectNode o = JSON.createObjectNode();
    o.put("platform", "aws");
    o.put("endpoint", d.name());
    o.put("status", d.status().name());
    o.put("desired_instances", d.desiredInstances());
    o.put("in_service_instances", d.currentInstances());
    o.put("instance_type", d.instanceType());
    ObjectNode sc = o.putObject("scaling");
    sc.put("attached", s.target().isPresent());
    sc.put("reason", s.reason());
    if (s.target().isPresent()) {
      ScalingState.ScalableTarget t = s.target().get();
      sc.put("resource_id", t.resourceId());
      sc.put("min_instances", t.minCapacity());
      sc.put("max_instances", t.maxCapacity());
      ObjectNode suspended = sc.putObject("suspended");
      suspended.put("dynamic_scaling_in", t.suspended().dynamicScalingIn());
      suspended.put("dynamic_scaling_out", t.suspended().dynamicScalingOut());
      suspended.put("scheduled_scaling", t.suspended().scheduledScaling());
    } else {
      sc.putNull("resource_id");
      sc.putNull("min_instances");
      sc.putNull("max_instances");
      sc.putNull("suspended");
    }
    ArrayNode policies = sc.putArray("policies");
    for (ScalingPolicy p : s.policies()) {
      ObjectNode n = policies.addObject();
      switch (p) {
        case ScalingPolicy.TargetTracking t -> {
          n.put("name", t.name());
          n.put("type", "TargetTrackingScaling");
          n.put("metric", t.metricName());
          n.put("statistic", t.statistic() == null ? null : t.statistic().name());
          n.put("period_s", t.periodSeconds());
          n.put("target_value", t.targetValue());
          n.put("scale_out_cooldown_s", t.scaleOutCooldownSeconds());
          n.put("scale_in_cooldown_s", t.scaleInCooldownSeconds());
          n.put("disable_scale_in", t.disableScaleIn());
        }
        case ScalingPolicy.StepScaling st -> {
          n.put("name", st.name());
          n.put("type", "StepScaling");
          n.put("adjustment_type", st.adjustmentType());
          n.put("cooldown_s", st.cooldownSeconds());
          ArrayNode steps = n.putArray("steps");
          for (ScalingPolicy.Step step : st.steps()) {
            ObjectNode sn = steps.addObject();
            if (step.lowerBound() == null) {
              sn.putNull("lower_bound");
            } else {
              sn.put("lower_bound", step.lowerBound().doubleValue());
            }
            if (step.upperBound() == null) {
              sn.putNull("upper_bound");
            } else {
              sn.put("upper_bound", step.upperBound().doubleValue());
            }
            sn.put("adjustment", step.adjustment());
          }
          ArrayNode alarms = n.putArray("alarm_names");
          st.alarmNames().forEach(alarms::add);
        }
      }
    }
    ArrayNode alarms = sc.putArray("alarms");
    for (Alarm a : s.alarms()) {
      alarms
          .addObject()
          .put("name", a.name())
          .put("metric", a.metricName())
          .put("statistic", a.statistic() == null ? null : a.statistic().name())
          .put("period_s", a.periodSeconds())
          .put("evaluation_periods", a.evaluationPeriods())
          .put("threshold", a.threshold())
          .put("comparison", a.comparison() == null ? null : a.comparison().name())
          .put("state", a.state().name());
    }
    o.put("observed_at", d.observedAt().toString());
    return o;
  }
}
