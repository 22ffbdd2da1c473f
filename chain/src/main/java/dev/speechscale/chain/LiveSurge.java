package dev.speechscale.chain;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.artifacts.ValidateArtifact.Result;
import dev.speechscale.capacity.Verdict;
import dev.speechscale.loadgen.OpenLoopDriver;
import dev.speechscale.loadgen.OpenLoopResult;
import dev.speechscale.loadgen.OpenLoopSpec;
import java.time.Duration;
import java.util.Locale;

/**
 * {@code live_surge}: a k× surge over what holds C_scale_max on the pinned fleet, open loop
 * (Poisson arrivals) so coordinated omission cannot hide queueing. Not absorbing it is a warning
 * when the plan's {@code surge_survival} finding predicted so, a failure otherwise.
 */
final class LiveSurge {
  private LiveSurge() {}

  /**
   * @param throughputAtCScaleMaxRps the plan's X(C_scale_max), per instance
   */
  static ValidateArtifact.Check run(
      LiveLoad load, int fleet, double sloMs, double throughputAtCScaleMaxRps) {
    PlanArtifact plan = load.plan();
    double k = plan.inputs().chosen().surgeRatio();
    double holding = fleet * throughputAtCScaleMaxRps * plan.utilizationMg1();
    double rate = k * holding;
    load.progress()
        .accept(
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
        new OpenLoopDriver(load.invoker(), load.texts(), load.nanos(), load.timeline())) {
      r =
          driver.run(
              OpenLoopSpec.constant(
                  rate,
                  load.phase(),
                  OpenLoopSpec.Arrivals.POISSON,
                  Math.max(64, plan.queueMaxDepth() * fleet * 4),
                  11L));
    }
    boolean predicted =
        plan.findings().stream()
            .anyMatch(f -> f.name().equals("surge_survival") && f.verdict() == Verdict.WARN);
    return judge(r.phases().getFirst(), k, load.phase(), sloMs, predicted);
  }

  /**
   * The check for surge phase {@code p}: absorbed when nothing was rejected or dropped and the p95
   * (from the intended send time) held {@code sloMs}.
   */
  static ValidateArtifact.Check judge(
      OpenLoopResult.PhaseResult p, double k, Duration phase, double sloMs, boolean predicted) {
    boolean absorbed =
        p.rejected() == 0 && p.dropped() == 0 && p.ttfabP95Ms() != null && p.ttfabP95Ms() <= sloMs;
    String actual =
        String.format(
            Locale.ROOT,
            "p95 %s ms from the intended send time, %d" + " rejected, %d dropped of %d",
            p.ttfabP95Ms() == null ? "n/a" : String.format(Locale.ROOT, "%.1f", p.ttfabP95Ms()),
            p.rejected(),
            p.dropped(),
            p.intended());
    if (absorbed) {
      return Checks.check(
          "live_surge",
          Result.OK,
          "absorbed within the SLO",
          actual,
          "a " + Checks.fmt(k) + "x surge held the SLO for " + phase.toSeconds() + " s");
    }
    return Checks.check(
        "live_surge",
        predicted ? Result.WARN : Result.FAIL,
        "absorbed within the SLO",
        actual,
        predicted
            ? "not absorbed, as the plan's surge_survival finding predicted"
            : "not absorbed, and the plan did not predict it");
  }
}
