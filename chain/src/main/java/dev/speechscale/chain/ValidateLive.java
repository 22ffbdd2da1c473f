package dev.speechscale.chain;

import dev.speechscale.artifacts.PlanArtifact;
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
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.RetryingPlatform;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
      ValidateRun.Options o,
      ChainClock clocks,
      Consumer<String> progress,
      TimelineRecorder timeline) {
    Clock clock = clocks.wall();
    NanoClock nanos = clocks.monotonic();
    PlanArtifact plan = o.plan();
    platform = RetryingPlatform.of(platform, clock); // backs off on throttling
    Duration settle = Timeouts.settle(plan.tTotalS(), platform.physics(endpoint));
    List<ValidateArtifact.Check> out = new ArrayList<>();
    double sloMs = plan.endpointConfig().ttfabSloMs();
    TextPool texts = TextPool.shuffled(o.texts(), 7);
    ValidateArtifact.RefusalCost refusalCost;
    try (Invoker invoker = platform.invoker(endpoint, o.transport())) {
      try (Freeze one = Freeze.pin(platform, endpoint, 1, settle, clock, progress)) {
        timeline.phase("live_rejections");
        Rejections r = rejections(invoker, nanos, texts, plan, o.phase(), progress, timeline);
        out.add(r.check());
        timeline.phase("refusal_cost");
        refusalCost =
            RefusalCostRun.measure(
                invoker,
                nanos,
                texts,
                plan.queueMaxDepth(),
                o.phase(),
                r.below(),
                r.above(),
                progress,
                timeline);
        progress.accept(RefusalCostRun.summary(refusalCost));
      }
      int fleet = Math.min(2, plan.maxInstances());
      try (Freeze two = Freeze.pin(platform, endpoint, fleet, settle, clock, progress)) {
        timeline.phase("live_slo_at_threshold_load");
        out.add(
            sloAtScaledFleet(
                invoker, nanos, texts, plan, fleet, sloMs, o.phase(), progress, timeline));
        timeline.phase("live_surge");
        out.add(surge(invoker, nanos, texts, plan, fleet, sloMs, o.phase(), progress, timeline));
      }
      if (plan.maxInstances() > plan.minInstances()) {
        timeline.phase("live_scale_out");
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
                progress,
                timeline));
      }
    }
    return new Outcome(out, refusalCost);
  }

  /** live_rejections' check and its two phases, which the refusal cost reuses. */
  private record Rejections(
      ValidateArtifact.Check check, RungRecording below, RungRecording above) {}

  private static Rejections rejections(
      Invoker invoker,
      NanoClock nanos,
      TextPool texts,
      PlanArtifact plan,
      Duration phase,
      Consumer<String> progress,
      RequestListener timeline) {
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
    RungRecording belowRun = closed(invoker, nanos, texts, below, phase, timeline);
    RungRecording aboveRun = closed(invoker, nanos, texts, above, phase, timeline);
    long rejectedBelow = rejected(belowRun);
    long rejectedAbove = rejected(aboveRun);
    boolean ok = rejectedBelow == 0 && rejectedAbove > 0;
    return new Rejections(
        ValidateRun.check(
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

  static ValidateArtifact.Check sloAtScaledFleet(
      Invoker invoker,
      NanoClock nanos,
      TextPool texts,
      PlanArtifact plan,
      int fleet,
      double sloMs,
      Duration phase,
      Consumer<String> progress,
      RequestListener timeline) {
    int n = Math.max(1, (int) Math.floor(0.8 * fleet * plan.cScaleMax()));
    progress.accept(
        "live: "
            + n
            + " concurrent on "
            + fleet
            + " instances (0.8 x "
            + fleet
            + " x C_scale_max "
            + ValidateRun.fmt(plan.cScaleMax())
            + ")");
    // The fleet was just pinned to `fleet` instances: the one started for it is JIT-cold. The
    // same load runs one phase first, unmeasured (qmax and replay warm up the same way), so the
    // check judges the fleet a policy holds at this load, not a start-up (that is T_total's).
    closed(invoker, nanos, texts, n, phase, timeline);
    RungRecording r = closed(invoker, nanos, texts, n, phase, timeline);
    double p95 = p95(r.events());
    boolean ok = p95 <= sloMs && rejected(r) == 0;
    return ValidateRun.check(
        "live_slo_at_threshold_load",
        ok ? Result.OK : Result.FAIL,
        String.format(Locale.ROOT, "p95 TTFAB <= %.0f ms", sloMs),
        String.format(Locale.ROOT, "p95 %.1f ms, %d rejected", p95, rejected(r)),
        n
            + " concurrent on "
            + fleet
            + " instances is 0.8x the load at which the fleet adds"
            + " capacity; the SLO must hold there (measured after one unmeasured phase of the"
            + " same load: the instance started for the fleet begins JIT-cold)");
  }

  private static ValidateArtifact.Check surge(
      Invoker invoker,
      NanoClock nanos,
      TextPool texts,
      PlanArtifact plan,
      int fleet,
      double sloMs,
      Duration phase,
      Consumer<String> progress,
      RequestListener timeline) {
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
    try (OpenLoopDriver driver = new OpenLoopDriver(invoker, texts, nanos, timeline)) {
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
        p.rejected() == 0 && p.dropped() == 0 && p.ttfabP95Ms() != null && p.ttfabP95Ms() <= sloMs;
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
      return ValidateRun.check(
          "live_surge",
          Result.OK,
          "absorbed within the SLO",
          actual,
          "a " + ValidateRun.fmt(k) + "x surge held the SLO for " + phase.toSeconds() + " s");
    }
    return ValidateRun.check(
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
      Consumer<String> progress,
      RequestListener timeline) {
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
      try (ClosedLoopDriver driver = new ClosedLoopDriver(invoker, texts, nanos, timeline)) {
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
          return ValidateRun.check(
              "live_scale_out",
              Result.FAIL,
              "within " + bound.toSeconds() + " s",
              "none within " + bound.toSeconds() + " s",
              "the policy did not add capacity within T under 2x the target");
        }
        double took = Duration.between(began, scaled).toMillis() / 1000.0;
        return ValidateRun.check(
            "live_scale_out",
            Result.OK,
            "within " + bound.toSeconds() + " s",
            String.format(Locale.ROOT, "%.1f s", took),
            "the policy detected 2x the target and a new instance was in service within T");
      }
    }
  }

  private static RungRecording closed(
      Invoker invoker,
      NanoClock nanos,
      TextPool texts,
      int n,
      Duration phase,
      RequestListener timeline) {
    try (ClosedLoopDriver driver = new ClosedLoopDriver(invoker, texts, nanos, timeline)) {
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
