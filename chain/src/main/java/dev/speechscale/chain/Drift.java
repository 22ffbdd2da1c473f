package dev.speechscale.chain;

import dev.speechscale.artifacts.Artifact;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.DriftArtifact;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.ScalingGate;
import dev.speechscale.artifacts.ToolVersion;
import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.Statistic;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * {@code drift}: a read-only reconciliation of what is deployed against the endpoint config and the
 * plan — scalable target, policies, the scale-in alarm, suspended flags, orphans, alarms stuck
 * without data, a policy whose metric publishes nothing. Runs first, every time, because a frozen
 * or orphaned policy would move capacity mid-measurement.
 */
public final class Drift {
  private Drift() {}

  /**
   * What drift compares.
   *
   * @param platform where the endpoint runs
   * @param config the model's endpoint config
   * @param plan the plan the config is deployed behind, or {@code null}
   * @param planSource where the plan was looked for
   */
  public record Inputs(
      Platform platform, EndpointConfig config, @Nullable PlanArtifact plan, String planSource) {}

  /**
   * Checks and builds the drift artifact (not written): the platform's name, {@code clean} when no
   * difference is an error.
   *
   * @param in what to compare
   * @param command the command line, for provenance
   * @param parameters the effective parameters, for provenance
   * @param clock the time of the check and of the artifact
   */
  public static DriftArtifact run(
      Inputs in, String command, Map<String, Object> parameters, Clock clock) {
    List<DriftArtifact.Item> items = check(in, clock);
    return new DriftArtifact(
        Artifact.SCHEMA_VERSION,
        ArtifactKind.DRIFT.label(),
        ToolVersion.current(),
        clock.instant(),
        Provenance.capture(command, parameters),
        in.config().modelName(),
        in.config().endpointName(),
        in.platform().name(),
        items.stream().noneMatch(i -> i.severity() == DriftArtifact.Severity.ERROR),
        items);
  }

  /** Every difference, errors first; empty when clean. */
  public static List<DriftArtifact.Item> check(Inputs in, Clock clock) {
    Platform p = RetryingPlatform.of(in.platform(), clock); // backs off on throttling
    String endpoint = in.config().endpointName();
    List<DriftArtifact.Item> items = new ArrayList<>();
    EndpointDescription description = p.describe(endpoint);
    checkEndpoint(items, description, endpoint);
    Fingerprint fp = p.fingerprint(endpoint);
    checkDeployment(items, fp, in.config());
    DeployedConfig deployed =
        new DeployedConfig(fp.instanceType(), fp.imageDigest(), fp.containerEnv());
    checkScaling(items, in, deployed, p, endpoint, clock, description.desiredInstances());
    items.sort(
        Comparator.comparing(
            (DriftArtifact.Item i) -> i.severity() == DriftArtifact.Severity.ERROR ? 0 : 1));
    return items;
  }

  /** The endpoint is in service with its capacity settled. */
  private static void checkEndpoint(
      List<DriftArtifact.Item> items, EndpointDescription d, String endpoint) {
    if (d.status() != EndpointStatus.IN_SERVICE) {
      items.add(
          error(
              "endpoint_status",
              "IN_SERVICE",
              d.status().name(),
              endpoint + " is " + d.status() + "; wait for InService or redeploy"));
    }
    if (d.desiredInstances() != d.currentInstances()) {
      items.add(
          warn(
              "instance_counts",
              "desired = in service",
              d.desiredInstances() + " desired, " + d.currentInstances() + " in service",
              "capacity is still moving; measure once it settles"));
    }
  }

  /** The deployed instance type and container environment are the config's. */
  private static void checkDeployment(
      List<DriftArtifact.Item> items, Fingerprint fp, EndpointConfig config) {
    if (!fp.instanceType().equals(config.instanceType())) {
      items.add(
          error(
              "instance_type",
              config.instanceType(),
              fp.instanceType(),
              "the deployed instance type differs from the config; redeploy"));
    }
    if (!fp.containerEnv().equals(config.containerEnv())) {
      items.add(
          error(
              "container_env",
              config.containerEnv().toString(),
              fp.containerEnv().toString(),
              "the deployed container environment differs from the config; redeploy"));
    }
  }

  /** Scaling is attached exactly when the gate allows it, unsuspended, with the plan's values. */
  private static void checkScaling(
      List<DriftArtifact.Item> items,
      Inputs in,
      DeployedConfig deployed,
      Platform p,
      String endpoint,
      Clock clock,
      int desired) {
    ScalingState s = p.scalingState(endpoint);
    ScalingGate.Decision gate =
        ScalingGate.decide(in.config(), deployed, in.plan(), in.planSource());
    boolean expected = gate instanceof ScalingGate.Decision.Attach;
    Optional<ScalingState.ScalableTarget> target = s.target();
    EndpointConfig bounds =
        gate instanceof ScalingGate.Decision.Attach attach ? attach.effective() : in.config();
    checkDesired(items, bounds, target.isPresent(), desired, in.config().modelName());
    if (target.isPresent() && target.get().suspended().anySuspended()) {
      items.add(
          error(
              "suspended_flags",
              "none suspended",
              target.get().suspended().toString(),
              "scaling is suspended — a stopped or killed qmax/ttotal run leaves it frozen; run"
                  + " `tts-bench thaw --model "
                  + in.config().modelName()
                  + "`"));
    }
    if (expected && target.isEmpty()) {
      items.add(
          error(
              "scalable_target",
              "attached behind " + in.planSource(),
              "none",
              "the plan allows scaling but none is attached ("
                  + s.reason()
                  + "); redeploy with the plan"));
    }
    if (!expected && target.isPresent()) {
      items.add(
          error(
              "orphaned_target",
              "none (" + gate.reason() + ")",
              target.get().resourceId(),
              "scaling is attached without a matching plan; destroy and redeploy"));
    }
    if (expected && target.isPresent()) {
      EndpointConfig want = ((ScalingGate.Decision.Attach) gate).effective();
      DriftPolicies.compareTarget(items, want, target.get());
      DriftPolicies.comparePolicies(items, want, s);
      checkAlarms(items, s, p, endpoint, clock);
    }
  }

  /**
   * Desired capacity is what the config allows: without scaling attached nothing but deploy sets
   * it, to {@code min_instances}; with scaling, the scalable target keeps it within {@code
   * [min_instances, max_instances]}. Anything else was left by a run that pinned capacity and was
   * killed before it could restore it; suspended flags cannot show that on an endpoint without a
   * scalable target, which has none to suspend.
   */
  private static void checkDesired(
      List<DriftArtifact.Item> items,
      EndpointConfig config,
      boolean scalingAttached,
      int desired,
      String model) {
    int min = config.minInstances();
    int max = config.maxInstances();
    if (scalingAttached ? desired >= min && desired <= max : desired == min) {
      return;
    }
    int restore = desired < min ? min : scalingAttached ? max : min;
    items.add(
        error(
            "desired_capacity",
            scalingAttached
                ? "within [" + min + ", " + max + "] (min_instances, max_instances)"
                : min + " (min_instances; no scaling attached)",
            String.valueOf(desired),
            "desired capacity is "
                + desired
                + " but "
                + (scalingAttached
                    ? "the config bounds it to [" + min + ", " + max + "]"
                    : "without scaling attached it must equal min_instances (" + min + ")")
                + "; a killed qmax or ttotal run leaves capacity pinned: run `tts-bench thaw"
                + " "
                + Flags.MODEL
                + " "
                + model
                + " "
                + Flags.DESIRED
                + " "
                + restore
                + "`"));
  }

  /** An alarm still in INSUFFICIENT_DATA: a warning, with what is known about its metric. */
  private static DriftArtifact.Item noDecisionYet(Alarm a, String why) {
    return warn(
        "alarm_data",
        "OK or ALARM",
        "INSUFFICIENT_DATA",
        "alarm " + a.name() + " has no decision yet" + why);
  }

  private static void checkAlarms(
      List<DriftArtifact.Item> items, ScalingState s, Platform p, String endpoint, Clock clock) {
    Instant now = clock.instant();
    for (Alarm a : s.alarms()) {
      if (a.state() == Alarm.AlarmState.INSUFFICIENT_DATA) {
        Statistic statistic = a.statistic();
        if (statistic == null) {
          // the platform could not name its statistic (an extended statistic or metric math):
          // there is no query to ask whether the metric publishes
          items.add(
              noDecisionYet(
                  a,
                  ", and it evaluates a statistic drift cannot read, so whether its metric"
                      + " publishes is unknown"));
          continue;
        }
        Duration needed = Duration.ofSeconds((long) a.periodSeconds() * a.evaluationPeriods());
        boolean publishes =
            !p.metric(
                    endpoint,
                    new MetricQuery(
                        MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL,
                        statistic,
                        Duration.ofSeconds(a.periodSeconds()),
                        now.minus(needed.multipliedBy(2)),
                        now))
                .datapoints()
                .isEmpty();
        items.add(
            noDecisionYet(
                a,
                publishes
                    ? " (the metric publishes; it needs " + needed.toSeconds() + " s of data)"
                    : " and its metric published nothing in the last "
                        + needed.multipliedBy(2).toSeconds()
                        + " s: a policy whose metric publishes nothing never fires"));
      }
    }
  }

  static DriftArtifact.Item error(String check, String expected, String actual, String detail) {
    return new DriftArtifact.Item(check, DriftArtifact.Severity.ERROR, expected, actual, detail);
  }

  static DriftArtifact.Item warn(String check, String expected, String actual, String detail) {
    return new DriftArtifact.Item(check, DriftArtifact.Severity.WARN, expected, actual, detail);
  }
}
