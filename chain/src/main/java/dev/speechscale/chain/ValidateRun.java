package dev.speechscale.chain;

import dev.speechscale.artifacts.Artifact;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.ToolVersion;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.artifacts.ValidateArtifact.Result;
import dev.speechscale.capacity.Verdict;
import dev.speechscale.loadgen.ClosedLoopDriver;
import dev.speechscale.loadgen.OpenLoopDriver;
import dev.speechscale.loadgen.OpenLoopResult;
import dev.speechscale.loadgen.OpenLoopSpec;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.RungRecording;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.Transport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;

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
      Transport transport,
      Duration phase,
      List<String> texts,
      String command,
      Map<String, Object> parameters) {}

  public static ValidateArtifact run(
      Platform platform, Options o, ChainClock clocks, Consumer<String> progress) {
    Clock clock = clocks.wall();
    String endpoint = "speech-" + o.model();
    platform = RetryingPlatform.of(platform, clock); // backs off on throttling
    List<ValidateArtifact.Check> checks =
        new ArrayList<>(staticChecks(platform, endpoint, o.plan()));
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
        checks.addAll(LiveChecks.run(platform, endpoint, o, clocks, progress));
      }
    }
    ValidateArtifact.Verdict verdict = ValidateArtifact.Verdict.of(checks);
    return new ValidateArtifact(
        Artifact.SCHEMA_VERSION,
        ArtifactKind.VALIDATE.label(),
        ToolVersion.current(),
        clock.instant(),
        Provenance.capture(o.command(), o.parameters()),
        o.model(),
        endpoint,
        platform.name(),
        o.planFile(),
        o.live(),
        verdict,
        checks);
  }

  static List<ValidateArtifact.Check> staticChecks(
      Platform platform, String endpoint, PlanArtifact plan) {
    List<ValidateArtifact.Check> out = new ArrayList<>();
    Fingerprint fp = platform.fingerprint(endpoint);
    DeployedConfig deployed =
        new DeployedConfig(fp.instanceType(), fp.imageDigest(), fp.containerEnv());
    out.add(
        DeployedConfig.sameDeployment(plan.deployedConfig(), deployed)
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
                "the plan was measured against another deployment"));
    ScalingState s = platform.scalingState(endpoint);
    if (s.target().isEmpty()) {
      out.add(
          check(
              "scalable_target",
              Result.FAIL,
              "attached",
              "none",
              "no scaling is attached: " + s.reason()));
      return out;
    }
    ScalingState.ScalableTarget t = s.target().get();
    out.add(compare("min_instances", plan.minInstances(), t.minCapacity()));
    out.add(compare("max_instances", plan.maxInstances(), t.maxCapacity()));
    Optional<ScalingPolicy.TargetTracking> tracking =
        s.policies().stream()
            .filter(ScalingPolicy.TargetTracking.class::isInstance)
            .map(ScalingPolicy.TargetTracking.class::cast)
            .findFirst();
    Optional<ScalingPolicy.StepScaling> step =
        s.policies().stream()
            .filter(ScalingPolicy.StepScaling.class::isInstance)
            .map(ScalingPolicy.StepScaling.class::cast)
            .findFirst();
    if (tracking.isEmpty()) {
      out.add(
          check(
              "scaling_target_value",
              Result.FAIL,
              fmt(plan.scalingTargetValue()),
              "none",
              "no target tracking policy"));
    } else {
      out.add(
          compare("scaling_target_value", plan.scalingTargetValue(), tracking.get().targetValue()));
      out.add(
          compare(
              "scale_out_cooldown_s",
              plan.scaleOutCooldownS(),
              tracking.get().scaleOutCooldownSeconds()));
      out.add(
          tracking.get().disableScaleIn()
              ? check(
                  "disable_scale_in", Result.OK, "true", "true", "target tracking never scales in")
              : check(
                  "disable_scale_in",
                  Result.FAIL,
                  "true",
                  "false",
                  "target tracking may scale in; only the step policy should"));
    }
    if (step.isEmpty()) {
      out.add(
          check(
              "scale_in_threshold",
              Result.FAIL,
              fmt(plan.scaleInThreshold()),
              "none",
              "no step scale-in policy"));
    } else {
      out.add(
          compare("scale_in_cooldown_s", plan.scaleInCooldownS(), step.get().cooldownSeconds()));
      Optional<Alarm> alarm =
          s.alarms().stream().filter(a -> step.get().alarmNames().contains(a.name())).findFirst();
      out.add(
          alarm.isEmpty()
              ? check(
                  "scale_in_threshold",
                  Result.FAIL,
                  fmt(plan.scaleInThreshold()),
                  "none",
                  "the step policy has no alarm")
              : compare("scale_in_threshold", plan.scaleInThreshold(), alarm.get().threshold()));
      alarm.ifPresent(a ->
          out.add(
              a.periodSeconds() >= 1
                      && a.evaluationPeriods() == 3
                      && a.statistic() == dev.speechscale.platform.Statistic.AVERAGE
                  ? check(
                      "scale_in_alarm",
                      Result.OK,
                      "Average, 3 periods",
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
                      "Average, 3 periods",
                      a.statistic() + ", " + a.evaluationPeriods() + " periods",
                      "the scale-in alarm reads another statistic")));
    }
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

  private static ValidateArtifact.Check compare(String name, Number expected, Number actual) {
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

  static String fmt(Number v) {
    if (v == null) {
      return "none";
    }
    double d = v.doubleValue();
    return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.3f", d);
  }

  static ValidateArtifact.Check check(
      String name, Result result, String expected, String actual, String detail) {
    return new ValidateArtifact.Check(name, result, expected, actual, detail);
  }

  /** The load checks; each phase's load is closed loop except the surge. */
  static final class LiveChecks {
    private LiveChecks() {}

    static List<ValidateArtifact.Check> run(
        Platform platform,
        String endpoint,
        Options o,
        ChainClock clocks,
        Consumer<String> progress) {
      Clock clock = clocks.wall();
      NanoClock nanos = clocks.monotonic();
      PlanArtifact plan = o.plan();
      platform = RetryingPlatform.of(platform, clock); // backs off on throttling
      Duration settle = Timeouts.settle(plan.tTotalS(), platform.physics(endpoint));
      List<ValidateArtifact.Check> out = new ArrayList<>();
      double sloMs = plan.endpointConfig().ttfabSloMs();
      TextPool texts = TextPool.shuffled(o.texts(), 7);
      try (Invoker invoker = platform.invoker(endpoint, o.transport())) {
        try (Freeze one = Freeze.pin(platform, endpoint, 1, settle, clock, progress)) {
          out.add(rejections(invoker, nanos, texts, plan, o.phase(), progress));
        }
        int fleet = Math.min(2, plan.maxInstances());
        try (Freeze two = Freeze.pin(platform, endpoint, fleet, settle, clock, progress)) {
          out.add(sloAtScaledFleet(invoker, nanos, texts, plan, fleet, sloMs, o.phase(), progress));
          out.add(surge(invoker, nanos, texts, plan, fleet, sloMs, o.phase(), progress));
        }
        if (plan.maxInstances() > plan.minInstances()) {
          out.add(
              scaleOut(
                  RetryingPlatform.of(platform),
                  endpoint,
                  invoker,
                  nanos,
                  texts,
                  plan,
                  settle,
                  clock,
                  progress));
        }
      }
      return out;
    }

    private static ValidateArtifact.Check rejections(
        Invoker invoker,
        NanoClock nanos,
        TextPool texts,
        PlanArtifact plan,
        Duration phase,
        Consumer<String> progress) {
      int q = plan.queueMaxDepth();
      int below = Math.max(1, q - 1);
      int above = q + Math.max(2, q / 2);
      progress.accept(
          "live: "
              + below
              + " then "
              + above
              + " concurrent on one instance"
              + " (queue_max_depth "
              + q
              + ")");
      long rejectedBelow = rejected(closed(invoker, nanos, texts, below, phase));
      long rejectedAbove = rejected(closed(invoker, nanos, texts, above, phase));
      boolean ok = rejectedBelow == 0 && rejectedAbove > 0;
      return check(
          "live_rejections",
          ok ? Result.OK : Result.FAIL,
          "none at " + below + ", some at " + above,
          rejectedBelow + " at " + below + ", " + rejectedAbove + " at " + above,
          ok
              ? "the container sheds above Q_max and not below it"
              : rejectedBelow > 0
                  ? "requests were refused below Q_max: the gate is too tight"
                  : "nothing was refused above Q_max: the gate does not bound the queue");
    }

    private static ValidateArtifact.Check sloAtScaledFleet(
        Invoker invoker,
        NanoClock nanos,
        TextPool texts,
        PlanArtifact plan,
        int fleet,
        double sloMs,
        Duration phase,
        Consumer<String> progress) {
      int n = Math.max(1, (int) Math.floor(0.8 * fleet * plan.cScaleMax()));
      progress.accept(
          "live: "
              + n
              + " concurrent on "
              + fleet
              + " instances (0.8 x "
              + fleet
              + " x C_scale_max "
              + fmt(plan.cScaleMax())
              + ")");
      RungRecording r = closed(invoker, nanos, texts, n, phase);
      double p95 = p95(r.events());
      boolean ok = p95 <= sloMs && rejected(r) == 0;
      return check(
          "live_slo_at_threshold_load",
          ok ? Result.OK : Result.FAIL,
          String.format(Locale.ROOT, "p95 TTFAB <= %.0f ms", sloMs),
          String.format(Locale.ROOT, "p95 %.1f ms, %d rejected", p95, rejected(r)),
          n
              + " concurrent on "
              + fleet
              + " instances is 0.8x the load at which the fleet adds"
              + " capacity; the SLO must hold there");
    }

    private static ValidateArtifact.Check surge(
        Invoker invoker,
        NanoClock nanos,
        TextPool texts,
        PlanArtifact plan,
        int fleet,
        double sloMs,
        Duration phase,
        Consumer<String> progress) {
      double k = plan.inputs().chosen().surgeRatio();
      double holding = fleet * plan.throughputAtCScaleMaxRps() * plan.utilizationMg1();
      double rate = k * holding;
      progress.accept(
          String.format(
              Locale.ROOT,
              "live: open-loop Poisson surge at %.1f req/s"
                  + " (%.2f x the %.1f req/s that holds C_scale_max on %d instances)",
              rate,
              k,
              holding,
              fleet));
      OpenLoopResult r;
      try (OpenLoopDriver driver =
          new OpenLoopDriver(invoker, texts, nanos, RequestListener.NONE)) {
        r =
            driver.run(
                OpenLoopSpec.constant(
                    rate,
                    phase,
                    OpenLoopSpec.Arrivals.POISSON,
                    Math.max(64, plan.queueMaxDepth() * fleet * 4),
                    11L));
      }
      OpenLoopResult.PhaseResult p = r.phases().getFirst();
      boolean absorbed =
          p.rejected() == 0
              && p.dropped() == 0
              && p.ttfabP95Ms() != null
              && p.ttfabP95Ms() <= sloMs;
      boolean predicted =
          plan.findings().stream()
              .anyMatch(f -> f.name().equals("surge_survival") && f.verdict() == Verdict.WARN);
      String actual =
          String.format(
              Locale.ROOT,
              "p95 %s ms from the intended send time, %d" + " rejected, %d dropped of %d",
              p.ttfabP95Ms() == null ? "n/a" : String.format(Locale.ROOT, "%.1f", p.ttfabP95Ms()),
              p.rejected(),
              p.dropped(),
              p.intended());
      if (absorbed) {
        return check(
            "live_surge",
            Result.OK,
            "absorbed within the SLO",
            actual,
            "a " + fmt(k) + "x surge held the SLO for " + phase.toSeconds() + " s");
      }
      return check(
          "live_surge",
          predicted ? Result.WARN : Result.FAIL,
          "absorbed within the SLO",
          actual,
          predicted
              ? "not absorbed, as the plan's surge_survival finding predicted"
              : "not absorbed, and the plan did not predict it");
    }

    private static ValidateArtifact.Check scaleOut(
        RetryingPlatform platform,
        String endpoint,
        Invoker invoker,
        NanoClock nanos,
        TextPool texts,
        PlanArtifact plan,
        Duration settle,
        Clock clock,
        Consumer<String> progress) {
      int start = plan.minInstances();
      int n = (int) Math.ceil(2 * plan.scalingTargetValue() * start);
      Duration bound = Duration.ofMillis(Math.round(plan.tTotalS() * 1000));
      dev.speechscale.platform.Physics physics = platform.physics(endpoint);
      try (Freeze pinned = Freeze.pin(platform, endpoint, start, settle, clock, progress)) {
        platform.setSuspended(endpoint, dev.speechscale.platform.SuspendedState.NONE);
        progress.accept(
            "live: "
                + n
                + " concurrent (2x the target on "
                + start
                + " instance"
                + (start == 1 ? "" : "s")
                + "), waiting for a scale-out within T "
                + bound.toSeconds()
                + " s");
        Instant began = clock.instant();
        try (ClosedLoopDriver driver =
            new ClosedLoopDriver(invoker, texts, nanos, RequestListener.NONE)) {
          Thread load =
              Thread.ofPlatform()
                  .daemon()
                  .start(() -> driver.run(0, 0, n, Timeouts.scaleOutLoad(bound, physics)));
          Instant scaled = null;
          while (Duration.between(began, clock.instant()).compareTo(bound) <= 0) {
            if (platform.describe(endpoint).currentInstances() > start) {
              scaled = clock.instant();
              break;
            }
            platform.pause(platform.pollInterval(endpoint));
          }
          driver.stop();
          try {
            load.join(Timeouts.loadDrain(physics));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          if (scaled == null) {
            return check(
                "live_scale_out",
                Result.FAIL,
                "within " + bound.toSeconds() + " s",
                "none within " + bound.toSeconds() + " s",
                "the policy did not add capacity within T under 2x the target");
          }
          double took = Duration.between(began, scaled).toMillis() / 1000.0;
          return check(
              "live_scale_out",
              Result.OK,
              "within " + bound.toSeconds() + " s",
              String.format(Locale.ROOT, "%.1f s", took),
              "the policy detected 2x the target and a new instance was in service within T");
        }
      }
    }

    private static RungRecording closed(
        Invoker invoker, NanoClock nanos, TextPool texts, int n, Duration phase) {
      try (ClosedLoopDriver driver =
          new ClosedLoopDriver(invoker, texts, nanos, RequestListener.NONE)) {
        return driver.run(0, 0, n, phase);
      }
    }

    private static long rejected(RungRecording r) {
      return r.events().stream().filter(e -> e.outcome() == Invocation.Outcome.REJECTED).count();
    }

    private static double p95(List<RequestEvent> events) {
      double[] t =
          events.stream().filter(RequestEvent::ok).mapToDouble(e -> e.ttfabNanos() / 1e6).toArray();
      return t.length == 0 ? Double.POSITIVE_INFINITY : Percentile.of(t, 95);
    }
  }
}
