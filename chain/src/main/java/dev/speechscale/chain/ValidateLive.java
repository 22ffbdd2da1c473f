package dev.speechscale.chain;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.ScalingMetricChoice;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.artifacts.ValidateArtifact.Result;
import dev.speechscale.loadgen.RungRecording;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.RetryingPlatform;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code validate --live}: the load checks, each phase closed loop except the surge (open loop, so
 * coordinated omission cannot hide queueing). Everything it changes is put back.
 */
final class ValidateLive {
  private ValidateLive() {}

  /**
   * What the load checks found.
   *
   * @param checks the checks, in the order run
   * @param refusalCost what refusing cost the instance, measured beside {@code live_rejections}
   */
  record Outcome(List<ValidateArtifact.Check> checks, ValidateArtifact.RefusalCost refusalCost) {
    Outcome {
      checks = List.copyOf(checks);
    }
  }

  static Outcome run(
      Platform platform,
      String endpoint,
      PlanArtifact plan,
      String planFile,
      ValidateLoad settings,
      NanoClock clocks,
      Consumer<String> progress,
      TimelineRecorder timeline) {
    Clock clock = clocks.wall();
    NanoClock nanos = clocks;
    double targetValue =
        PlanFigures.required(plan.scalingTargetValue(), "scaling_target_value", planFile);
    double throughput =
        PlanFigures.required(
            plan.throughputAtCScaleMaxRps(), "throughput_at_c_scale_max_rps", planFile);
    platform = RetryingPlatform.of(platform, clock); // backs off on throttling
    Duration settle = Timeouts.settle(plan.tTotalS(), platform.physics(endpoint));
    List<ValidateArtifact.Check> out = new ArrayList<>();
    double sloMs = plan.endpointConfig().ttfabSloMs();
    TextPool texts = TextPool.shuffled(settings.texts(), 7);
    ValidateArtifact.RefusalCost refusalCost;
    try (Invoker invoker = platform.invoker(endpoint, settings.transport())) {
      LiveLoad load =
          new LiveLoad(invoker, nanos, texts, plan, settings.phase(), progress, timeline);
      try (Freeze one = Freeze.pin(platform, endpoint, 1, settle, clock, progress)) {
        Outcome single = onOneInstance(load, timeline);
        out.addAll(single.checks());
        refusalCost = single.refusalCost();
      }
      int fleet = Math.min(2, plan.maxInstances());
      ScalingMetricChoice metric = plan.scalingMetricChoice();
      boolean concurrency = metric == ScalingMetricChoice.CONCURRENT_REQUESTS_PER_MODEL;
      try (Freeze two = Freeze.pin(platform, endpoint, fleet, settle, clock, progress)) {
        timeline.phase("live_slo_at_threshold_load");
        out.add(
            concurrency
                ? sloAtScaledFleet(load, fleet, sloMs)
                : notRun("live_slo_at_threshold_load", metric, targetValue, progress));
        timeline.phase("live_surge");
        out.add(LiveSurge.run(load, fleet, sloMs, throughput));
      }
      if (plan.maxInstances() > plan.minInstances()) {
        timeline.phase("live_scale_out");
        out.add(
            concurrency
                ? LiveScaleOut.run(
                    RetryingPlatform.of(platform), endpoint, load, targetValue, settle, clock)
                : notRun("live_scale_out", metric, targetValue, progress));
      }
    }
    return new Outcome(out, refusalCost);
  }

  /**
   * A concurrency check not run for a plan that tracks another metric: it drives the plan's target
   * as concurrent requests, which for InvocationsPerInstance (requests per instance per minute)
   * would be hundreds of streams and a failure that says nothing of the policy.
   */
  static ValidateArtifact.Check notRun(
      String name, ScalingMetricChoice metric, double targetValue, Consumer<String> progress) {
    String why =
        "not run: the plan tracks "
            + metric.label()
            + " at "
            + Checks.fmt(targetValue)
            + ", and this check drives the target as concurrent requests (a"
            + " concurrent_requests_per_model plan's); tts-bench simulate and search predict this"
            + " policy";
    progress.accept("live: " + name + " " + why);
    return Checks.check(name, Result.WARN, "a concurrent_requests_per_model target", "-", why);
  }

  /** live_rejections, then the refusal cost measured on the same two phases. */
  private static Outcome onOneInstance(LiveLoad load, TimelineRecorder timeline) {
    timeline.phase("live_rejections");
    Rejections r = rejections(load);
    timeline.phase("refusal_cost");
    ValidateArtifact.RefusalCost refusalCost =
        RefusalCostRun.measure(
            load.invoker(),
            load.nanos(),
            load.texts(),
            load.plan().queueMaxDepth(),
            load.phase(),
            r.below(),
            r.above(),
            load.progress(),
            timeline);
    load.progress().accept(RefusalCostRun.summary(refusalCost));
    return new Outcome(List.of(r.check()), refusalCost);
  }

  /** live_rejections' check and its two phases, which the refusal cost reuses. */
  private record Rejections(
      ValidateArtifact.Check check, RungRecording below, RungRecording above) {}

  private static Rejections rejections(LiveLoad load) {
    int q = load.plan().queueMaxDepth();
    int below = Math.max(1, q - 1);
    int above = q + Math.max(2, q / 2);
    load.progress()
        .accept(
            "live: "
                + below
                + " then "
                + above
                + " concurrent on one instance"
                + " (queue_max_depth "
                + q
                + ")");
    RungRecording belowRun = load.closed(below);
    load.requireReached(belowRun); // a URL where nothing serves: stop now, not after every bound
    RungRecording aboveRun = load.closed(above);
    long rejectedBelow = LiveLoad.rejected(belowRun);
    long rejectedAbove = LiveLoad.rejected(aboveRun);
    boolean ok = rejectedBelow == 0 && rejectedAbove > 0;
    return new Rejections(
        Checks.check(
            "live_rejections",
            ok ? Result.OK : Result.FAIL,
            "none at " + below + ", some at " + above,
            rejectedBelow + " at " + below + ", " + rejectedAbove + " at " + above,
            ok
                ? "the container sheds above Q_max and not below it"
                : rejectedBelow > 0
                    ? "requests were refused below Q_max: the gate is too tight"
                    : "nothing was refused above Q_max: the gate does not bound the queue"),
        belowRun,
        aboveRun);
  }

  static ValidateArtifact.Check sloAtScaledFleet(LiveLoad load, int fleet, double sloMs) {
    PlanArtifact plan = load.plan();
    int n = Math.max(1, (int) Math.floor(0.8 * fleet * plan.cScaleMax()));
    load.progress()
        .accept(
            "live: "
                + n
                + " concurrent on "
                + fleet
                + " instances (0.8 x "
                + fleet
                + " x C_scale_max "
                + Checks.fmt(plan.cScaleMax())
                + ")");
    // The fleet was just pinned to `fleet` instances: the one started for it is JIT-cold. The
    // same load runs one phase first, unmeasured (qmax and replay warm up the same way), so the
    // check judges the fleet a policy holds at this load, not a start-up (that is T_total's).
    load.closed(n);
    RungRecording r = load.closed(n);
    double p95 = LiveLoad.p95(r.events());
    boolean ok = p95 <= sloMs && LiveLoad.rejected(r) == 0;
    return Checks.check(
        "live_slo_at_threshold_load",
        ok ? Result.OK : Result.FAIL,
        String.format(Locale.ROOT, "p95 TTFAB <= %.0f ms", sloMs),
        String.format(Locale.ROOT, "p95 %.1f ms, %d rejected", p95, LiveLoad.rejected(r)),
        n
            + " concurrent on "
            + fleet
            + " instances is 0.8x the load at which the fleet adds"
            + " capacity; the SLO must hold there (measured after one unmeasured phase of the"
            + " same load: the instance started for the fleet begins JIT-cold)");
  }
}
