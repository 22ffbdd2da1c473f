package dev.speechscale.chain;

import static dev.speechscale.chain.Checks.check;
import static dev.speechscale.chain.Checks.fmt;
import static dev.speechscale.chain.Checks.missing;

import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.Header;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.ScaleInAlarmChoice;
import dev.speechscale.artifacts.Stamp;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.artifacts.ValidateArtifact.Result;
import dev.speechscale.artifacts.ValidateTimeline;
import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * {@code validate}: the deployed policy equals the plan (static), and with {@code --live} it
 * behaves as planned: rejections only above Q_max, the SLO held at 0.8× the scaled fleet's
 * threshold load, a scale-out within T, and a k× surge (open loop, so coordinated omission cannot
 * hide queueing). Everything it changes is put back.
 */
public final class ValidateRun {
  private ValidateRun() {}

  /**
   * What to validate.
   *
   * @param model the model
   * @param plan the plan artifact
   * @param planFile its path
   * @param live run the load checks
   * @param transport the transport for load checks
   * @param phase how long each load phase runs
   * @param texts the text pool
   * @param command the command line
   * @param parameters effective parameters
   */
  public record Options(
      String model,
      PlanArtifact plan,
      String planFile,
      boolean live,
      ValidateLoad load,
      String command,
      Map<String, Object> parameters) {}

  public static ValidateArtifact run(
      Platform platform, Options o, NanoClock clocks, Consumer<String> progress) {
    Clock clock = clocks.wall();
    String endpoint = "speech-" + o.model();
    platform = RetryingPlatform.of(platform, clock); // backs off on throttling
    List<ValidateArtifact.Check> checks =
        new ArrayList<>(staticChecks(platform, endpoint, o.plan()));
    ValidateTimeline timeline = null;
    ValidateArtifact.RefusalCost refusalCost = null;
    if (o.live()) {
      boolean deployedOk = checks.stream().noneMatch(c -> c.result() == Result.FAIL);
      if (!deployedOk) {
        checks.add(
            check(
                "live",
                Result.WARN,
                "static checks pass",
                "static checks failed",
                "load checks skipped: the deployed policy is not the plan's, so its behaviour would"
                    + " not say anything about the plan"));
      } else {
        try (TimelineRecorder recorder = TimelineRecorder.start(platform, endpoint, clocks)) {
          ValidateLive.Outcome live =
              ValidateLive.run(
                  platform, endpoint, o.plan(), o.planFile(), o.load(), clocks, progress, recorder);
          checks.addAll(live.checks());
          refusalCost = live.refusalCost();
          timeline = recorder.finish();
        }
      }
    }
    ValidateArtifact.Verdict verdict = ValidateArtifact.Verdict.of(checks);
    return new ValidateArtifact(
        Header.of(
            ArtifactKind.VALIDATE,
            Stamp.current(clock.instant(), Provenance.capture(o.command(), o.parameters()))),
        o.model(),
        endpoint,
        platform.name(),
        o.planFile(),
        o.live(),
        verdict,
        checks,
        timeline,
        refusalCost);
  }

  static List<ValidateArtifact.Check> staticChecks(
      Platform platform, String endpoint, PlanArtifact plan) {
    List<ValidateArtifact.Check> out = new ArrayList<>();
    out.add(fingerprint(platform.fingerprint(endpoint), plan));
    ScalingState s = platform.scalingState(endpoint);
    if (s.target().isEmpty()) {
      out.add(missing("scalable_target", "attached", "no scaling is attached: " + s.reason()));
      return out;
    }
    ScalingState.ScalableTarget t = s.target().get();
    out.add(compare("min_instances", plan.minInstances(), t.minCapacity()));
    out.add(compare("max_instances", plan.maxInstances(), t.maxCapacity()));
    scheduledFloors(plan, t).ifPresent(out::add);
    out.addAll(targetTracking(plan, first(s, ScalingPolicy.TargetTracking.class)));
    out.addAll(stepScaleIn(plan, s, first(s, ScalingPolicy.StepScaling.class)));
    OptionalInt bound = platform.containerQueueBound(endpoint);
    out.add(
        bound.isEmpty()
            ? check(
                "queue_max_depth",
                Result.WARN,
                Integer.toString(plan.queueMaxDepth()),
                "unknown",
                "the platform does not report the container's queue bound")
            : compare("queue_max_depth", plan.queueMaxDepth(), bound.getAsInt()));
    return out;
  }

  private static ValidateArtifact.Check fingerprint(Fingerprint fp, PlanArtifact plan) {
    DeployedConfig deployed =
        new DeployedConfig(fp.instanceType(), fp.imageDigest(), fp.containerEnv());
    return DeployedConfig.sameDeployment(plan.deployedConfig(), deployed)
        ? check(
            "fingerprint",
            Result.OK,
            plan.slug(),
            deployed.slug(),
            "the plan was measured against" + " this deployment")
        : check(
            "fingerprint",
            Result.FAIL,
            DeployedConfig.slugOf(plan.deployedConfig()),
            deployed.slug(),
            "the plan was measured against another deployment");
  }

  /**
   * The scalable target's scheduled actions against the plan's {@code scheduled_floors}; no check
   * when neither has any (plans without floors validate as before).
   */
  private static Optional<ValidateArtifact.Check> scheduledFloors(
      PlanArtifact plan, ScalingState.ScalableTarget t) {
    String planned =
        DriftPolicies.floors(plan.scheduledFloors() == null ? List.of() : plan.scheduledFloors());
    String deployed = DriftPolicies.deployedFloors(t.scheduledActions());
    if (planned.equals("none") && deployed.equals("none")) {
      return Optional.empty();
    }
    return Optional.of(
        planned.equals(deployed)
            ? check(
                "scheduled_floors",
                Result.OK,
                planned,
                deployed,
                "the scheduled minimum-capacity floors are deployed as planned")
            : check(
                "scheduled_floors",
                Result.FAIL,
                planned,
                deployed,
                "the scalable target's scheduled actions differ from the plan's"
                    + " scheduled_floors"));
  }

  private static <T extends ScalingPolicy> Optional<T> first(ScalingState s, Class<T> type) {
    return s.policies().stream().filter(type::isInstance).map(type::cast).findFirst();
  }

  /** The target tracking policy's target value, scale-out cooldown and disabled scale-in. */
  private static List<ValidateArtifact.Check> targetTracking(
      PlanArtifact plan, Optional<ScalingPolicy.TargetTracking> tracking) {
    if (tracking.isEmpty()) {
      return List.of(
          missing(
              "scaling_target_value", fmt(plan.scalingTargetValue()), "no target tracking policy"));
    }
    ScalingPolicy.TargetTracking t = tracking.get();
    return List.of(
        compare("scaling_target_value", plan.scalingTargetValue(), t.targetValue()),
        compare("scale_out_cooldown_s", plan.scaleOutCooldownS(), t.scaleOutCooldownSeconds()),
        t.disableScaleIn()
            ? check(
                "disable_scale_in", Result.OK, "true", "true", "target tracking never scales in")
            : check(
                "disable_scale_in",
                Result.FAIL,
                "true",
                "false",
                "target tracking may scale in; only the step policy should"));
  }

  /** The step scale-in policy's cooldown, and its alarm's threshold and shape. */
  private static List<ValidateArtifact.Check> stepScaleIn(
      PlanArtifact plan, ScalingState s, Optional<ScalingPolicy.StepScaling> step) {
    if (step.isEmpty()) {
      return List.of(
          missing("scale_in_threshold", fmt(plan.scaleInThreshold()), "no step scale-in policy"));
    }
    List<ValidateArtifact.Check> out = new ArrayList<>();
    out.add(compare("scale_in_cooldown_s", plan.scaleInCooldownS(), step.get().cooldownSeconds()));
    Optional<Alarm> alarm =
        s.alarms().stream().filter(a -> step.get().alarmNames().contains(a.name())).findFirst();
    out.add(
        alarm.isEmpty()
            ? missing(
                "scale_in_threshold", fmt(plan.scaleInThreshold()), "the step policy has no alarm")
            : compare("scale_in_threshold", plan.scaleInThreshold(), alarm.get().threshold()));
    alarm.ifPresent(a -> out.add(scaleInAlarm(plan, a)));
    return out;
  }

  /**
   * The scale-in alarm reads the plan's {@code scale_in_alarm} statistic over 3 periods (the two
   * choices differ in statistic; their period is time-scaled on a local endpoint). Maximum over 10
   * s cannot undo a fresh scale-out; Average over 60 s can (issue 35).
   */
  private static ValidateArtifact.Check scaleInAlarm(PlanArtifact plan, Alarm a) {
    ScaleInAlarmChoice planned = plan.scaleInAlarmChoice();
    String expected = planned.statistic() + ", 3 periods";
    boolean same =
        a.periodSeconds() >= 1
            && a.evaluationPeriods() == 3
            && a.statistic() != null
            && a.statistic().name().equalsIgnoreCase(planned.statistic());
    return same
        ? check(
            "scale_in_alarm",
            Result.OK,
            expected,
            a.statistic()
                + ", "
                + a.evaluationPeriods()
                + " periods of "
                + a.periodSeconds()
                + " s",
            "the scale-in alarm reads what the plan converted its threshold for")
        : check(
            "scale_in_alarm",
            Result.FAIL,
            expected,
            a.statistic() + ", " + a.evaluationPeriods() + " periods",
            "the scale-in alarm reads another statistic than the plan's scale_in_alarm ("
                + planned
                + "); another statistic can undo target tracking's scale-out (policy_conflict)");
  }

  private static ValidateArtifact.Check compare(
      String name, @Nullable Number expected, @Nullable Number actual) {
    boolean same =
        expected != null
            && actual != null
            && Math.abs(expected.doubleValue() - actual.doubleValue()) < 1e-6;
    return check(
        name,
        same ? Result.OK : Result.FAIL,
        fmt(expected),
        fmt(actual),
        same
            ? "deployed as planned"
            : "deployed " + fmt(actual) + " but the plan says " + fmt(expected));
  }
}
