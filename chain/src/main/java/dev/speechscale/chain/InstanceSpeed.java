package dev.speechscale.chain;

import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.capacity.ThroughputCurve;
import dev.speechscale.simulator.InstanceModel;
import java.util.Locale;
import java.util.OptionalDouble;
import org.jspecify.annotations.Nullable;

/**
 * Whether a replay's prediction takes the instance's speed from its warm-up: X_sat = the ladder's
 * X_sat × (the warm-up's X(N) / the ladder's X(N)). The ladder was measured minutes before, and on
 * a shared machine the same instance serves faster or slower from run to run (the nine quiet
 * replays in measurements/simulator-calibration.md: X_sat 7–22 % off what the live instance served,
 * which alone moved the shed by up to 6 points). The warm-up is the same instance, alone, under the
 * same closed loop as the ladder's rung at that N, seconds before the trace.
 *
 * <p>Not the default ({@link Source#LADDER} is): on a freshly deployed instance, which every replay
 * here starts with, the warm-up's second half still reads the instance warming — 10.3 req/s against
 * the ladder's 14.1 (×0.73) in the quiet quickstart of 2026-12-02 11:19, whose surge then served
 * faster than the ladder, so the prediction with it shed 35.6 % where 18.4 % was measured. The
 * figure is recorded either way ({@code live.warmup}).
 */
public final class InstanceSpeed {
  private InstanceSpeed() {}

  /** Where the prediction's X_sat comes from. */
  public enum Source {
    /** The ladder's, scaled by the warm-up's speed against the ladder at the same N. */
    WARMUP,
    /** The ladder's (the plan's X(C_scale_max)) as measured. */
    LADDER
  }

  /**
   * What was decided.
   *
   * @param figure the artifact's record of it
   * @param saturation X_sat for the prediction, or {@code null} to keep the ladder's
   */
  record Decision(ReplayArtifact.Warmup figure, InstanceModel.@Nullable Saturation saturation) {

    /** The warm-up's figure, with the ladder's X_sat kept. */
    static Decision ladder(ReplayArtifact.Warmup figure) {
      return new Decision(figure, null);
    }
  }

  /**
   * Decides from the warm-up's speed.
   *
   * @param warmup the warm-up's speed, or {@code null} without a warm-up
   * @param ladder the qmax ladder's throughput curve
   * @param ladderXSat the X_sat the prediction has from the ladder (the plan's X(C_scale_max))
   * @param source whether to apply the warm-up's speed
   * @return {@code null} without a warm-up
   */
  static @Nullable Decision of(
      @Nullable WarmupSpeed warmup, ThroughputCurve ladder, double ladderXSat, Source source) {
    if (warmup == null) {
      return null;
    }
    OptionalDouble atN = ladder.at(warmup.concurrency());
    if (atN.isEmpty() || !(atN.getAsDouble() > 0)) {
      return Decision.ladder(
          figure(warmup, null, null, false, "the ladder has no throughput to hold it against"));
    }
    double ladderX = atN.getAsDouble();
    double ratio = warmup.servedPerSecond() / ladderX;
    if (!warmup.enough()) {
      return Decision.ladder(
          figure(
              warmup,
              ladderX,
              ratio,
              false,
              String.format(
                  Locale.ROOT,
                  "only %d requests in the warm-up's second half (%d needed): X_sat from the"
                      + " ladder",
                  warmup.requests(),
                  WarmupSpeed.MIN_REQUESTS)));
    }
    if (source == Source.LADDER) {
      return Decision.ladder(
          figure(warmup, ladderX, ratio, false, Flags.SPEED + " ladder: X_sat from the ladder"));
    }
    double x = ladderXSat * ratio;
    String why =
        String.format(
            Locale.ROOT,
            "X_sat %.2f req/s = the ladder's %.2f x %.3f, the instance's speed in the replay's"
                + " warm-up (N=%d: %.2f req/s against the ladder's %.2f)",
            x,
            ladderXSat,
            ratio,
            warmup.concurrency(),
            warmup.servedPerSecond(),
            ladderX);
    return new Decision(
        figure(warmup, ladderX, ratio, true, why), new InstanceModel.Saturation.Given(x, why));
  }

  private static ReplayArtifact.Warmup figure(
      WarmupSpeed w,
      @Nullable Double ladderX,
      @Nullable Double ratio,
      boolean applied,
      String note) {
    return new ReplayArtifact.Warmup(
        w.concurrency(),
        w.requests(),
        w.seconds(),
        w.servedPerSecond(),
        ladderX,
        ratio,
        applied,
        note,
        w.servedTotal());
  }
}
