package dev.speechscale.chain;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.artifacts.ValidateArtifact.Result;
import dev.speechscale.loadgen.ClosedLoopDriver;
import dev.speechscale.platform.Physics;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.SuspendedState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * {@code live_scale_out}: from the plan's floor, 2× the scaling target's load must bring a new
 * instance into service within T. The fleet is pinned at the floor with scaling resumed, and put
 * back after.
 */
final class LiveScaleOut {
  private LiveScaleOut() {}

  /**
   * @param scalingTargetValue the plan's target value (C_scale_max in the deployed metric's units)
   */
  static ValidateArtifact.Check run(
      RetryingPlatform platform,
      String endpoint,
      LiveLoad load,
      double scalingTargetValue,
      Duration settle,
      Clock clock) {
    PlanArtifact plan = load.plan();
    int start = plan.minInstances();
    int n = (int) Math.ceil(2 * scalingTargetValue * start);
    Duration bound = Duration.ofMillis(Math.round(plan.tTotalS() * 1000));
    Physics physics = platform.physics(endpoint);
    try (Freeze pinned = Freeze.pin(platform, endpoint, start, settle, clock, load.progress())) {
      platform.setSuspended(endpoint, SuspendedState.NONE);
      load.progress()
          .accept(
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
          new ClosedLoopDriver(load.invoker(), load.texts(), load.nanos(), load.timeline())) {
        Thread running =
            Thread.ofPlatform()
                .daemon()
                .start(() -> driver.run(0, 0, n, Timeouts.scaleOutLoad(bound, physics)));
        @Nullable Instant scaled = null;
        while (Duration.between(began, clock.instant()).compareTo(bound) <= 0) {
          if (platform.describe(endpoint).currentInstances() > start) {
            scaled = clock.instant();
            break;
          }
          platform.pause(platform.pollInterval(endpoint));
        }
        driver.stop();
        try {
          running.join(Timeouts.loadDrain(physics));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return judge(bound, began, scaled);
      }
    }
  }

  /** The check for a scale-out seen at {@code scaled} ({@code null}: none) after {@code began}. */
  static ValidateArtifact.Check judge(Duration bound, Instant began, @Nullable Instant scaled) {
    if (scaled == null) {
      return Checks.check(
          "live_scale_out",
          Result.FAIL,
          "within " + bound.toSeconds() + " s",
          "none within " + bound.toSeconds() + " s",
          "the policy did not add capacity within T under 2x the target");
    }
    double took = Duration.between(began, scaled).toMillis() / 1000.0;
    return Checks.check(
        "live_scale_out",
        Result.OK,
        "within " + bound.toSeconds() + " s",
        String.format(Locale.ROOT, "%.1f s", took),
        "the policy detected 2x the target and a new instance was in service within T");
  }
}
