package dev.speechscale.platform.local;

import java.time.Instant;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code speech-infra status --json} on the local platform: the facts the text status prints, as
 * one JSON object whose field names docs/speech-infra.md lists (snake_case, times ISO-8601 UTC,
 * absent values {@code null}). The fields both platforms share come first: {@code platform}, {@code
 * endpoint}, {@code status}, {@code desired_instances}, {@code in_service_instances}, {@code
 * instance_type}, {@code scaling.{attached, reason, resource_id, min_instances, max_instances,
 * suspended}}.
 */
final class LocalStatusJson {
  private LocalStatusJson() {}

  static final JsonMapper JSON = JsonMapper.builder().build();

  /** The object for a status report; a dead supervisor's last published status, if any. */
  static ObjectNode of(LocalDeployer.Report r) {
    ObjectNode o = JSON.createObjectNode();
    o.put("platform", "local");
    o.put("endpoint", r.endpoint());
    Views.Status s = r.status();
    Views.Describe d = s == null ? null : s.describe();
    o.put("status", d == null ? null : d.status());
    putInt(o, "desired_instances", d == null ? null : d.desired());
    putInt(o, "in_service_instances", d == null ? null : d.current());
    o.put("instance_type", d == null ? r.record().config().instanceType() : d.instanceType());
    o.set("scaling", s == null ? null : scaling(s.scaling()));
    o.put("engine", r.record().config().engine());
    o.put("failure", d == null ? null : d.failure());
    o.put("fingerprint", r.record().fingerprintDigest());
    ObjectNode supervisor = o.putObject("supervisor");
    supervisor.put("alive", r.supervisorAlive());
    supervisor.put("pid", r.record().supervisorPid());
    putInt(supervisor, "router_port", s == null ? null : s.routerPort());
    ArrayNode orphans = supervisor.putArray("orphans_stopped");
    r.orphansStopped().forEach(orphans::add);
    o.put("published_at", text(s == null ? null : s.publishedAt()));
    ArrayNode instances = o.putArray("instances");
    if (s != null) {
      for (LocalState.InstanceRecord i : s.instances()) {
        ObjectNode n = instances.addObject();
        n.put("id", i.id());
        n.put("pid", i.pid());
        n.put("port", i.port());
        n.put("phase", i.phase());
        n.put("in_flight", i.inFlight());
        n.put("requested_at", text(i.requestedAt()));
        n.put("first_log_at", text(i.firstLogAt()));
        n.put("in_service_at", text(i.inServiceAt()));
        n.put("cpu", i.cpuLimit() == null ? null : i.cpuLimit().describe());
      }
    }
    return o;
  }

  private static ObjectNode scaling(Views.Scaling sc) {
    ObjectNode o = JSON.createObjectNode();
    o.put("attached", sc.attached());
    o.put("reason", sc.reason());
    o.put("resource_id", sc.attached() ? sc.resourceId() : null);
    putInt(o, "min_instances", sc.attached() ? sc.min() : null);
    putInt(o, "max_instances", sc.attached() ? sc.max() : null);
    if (sc.attached()) {
      ObjectNode suspended = o.putObject("suspended");
      suspended.put("dynamic_scaling_in", sc.suspendedIn());
      suspended.put("dynamic_scaling_out", sc.suspendedOut());
      suspended.put("scheduled_scaling", sc.suspendedScheduled());
      ObjectNode tracking =
          alarm(
              o,
              "target_tracking",
              "Maximum",
              sc.trackingPeriodS(),
              sc.trackingEvaluationPeriods());
      tracking.put("target_value", sc.targetValue());
      tracking.put("scale_out_cooldown_s", sc.scaleOutCooldownS());
      tracking.put("alarm_state", sc.highAlarmState());
      ObjectNode stepIn =
          alarm(o, "step_scale_in", "Average", sc.scaleInPeriodS(), sc.scaleInEvaluationPeriods());
      stepIn.put("threshold", sc.scaleInThreshold());
      stepIn.put("adjustment", -1);
      stepIn.put("cooldown_s", sc.scaleInCooldownS());
      stepIn.put("alarm_state", sc.lowAlarmState());
    } else {
      o.putNull("suspended");
    }
    ArrayNode activities = o.putArray("activities");
    for (Views.Activity a : sc.activities()) {
      activities
          .addObject()
          .put("at", text(a.at()))
          .put("from", a.from())
          .put("to", a.to())
          .put("cause", a.cause());
    }
    return o;
  }

  /**
   * The object {@code name} of {@code o}, opened with what a scaling policy's alarm watches: the
   * ConcurrentRequestsPerModel {@code statistic} over {@code periodS} for {@code
   * evaluationPeriods}.
   */
  private static ObjectNode alarm(
      ObjectNode o, String name, String statistic, int periodS, int evaluationPeriods) {
    ObjectNode alarm = o.putObject(name);
    alarm.put("metric", "ConcurrentRequestsPerModel");
    alarm.put("statistic", statistic);
    alarm.put("period_s", periodS);
    alarm.put("evaluation_periods", evaluationPeriods);
    return alarm;
  }

  private static void putInt(ObjectNode o, String name, @Nullable Integer value) {
    if (value == null) {
      o.putNull(name);
    } else {
      o.put(name, value.intValue());
    }
  }

  private static @Nullable String text(@Nullable Instant t) {
    return t == null ? null : t.toString();
  }
}
