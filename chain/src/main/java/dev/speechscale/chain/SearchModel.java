package dev.speechscale.chain;

import dev.speechscale.artifacts.FirstByteEvidences;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.PlanSaturation;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ScaleOutColdStart;
import dev.speechscale.artifacts.StartupDelaySamples;
import dev.speechscale.scaling.ScaleInAlarm;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.Policies;
import java.time.Duration;
import java.util.List;

/**
 * What {@code search} (and the quickstart's search step) simulates from the artifacts: the instance
 * as qmax measured it under the plan's saturation and queue bound, and the plan's numbers the
 * search starts from. One place, so the quickstart's search and its rerun line agree.
 */
public final class SearchModel {
  private SearchModel() {}

  /**
   * The simulated instance: qmax's measurement, the plan's saturation and queue bound, the ttotal
   * runs' start-up delays and cold start, the server's deadline.
   */
  public static InstanceModel instance(
      QmaxArtifact q,
      String qmaxFile,
      List<StartupDelaySamples.Input> ttotals,
      PlanArtifact p,
      Duration maxRequestAge) {
    return InstanceModel.fromMeasurement(
            q.measurement(qmaxFile),
            FirstByteEvidences.of(q),
            PlanSaturation.of(p),
            p.queueMaxDepth(),
            maxRequestAge,
            StartupDelaySamples.of(ttotals).delays())
        .withColdStart(ScaleOutColdStart.of(ttotals, q, qmaxFile))
        .withIdleStart(q.idleStartFactors(qmaxFile));
  }

  /**
   * The plan's policy numbers for the simulator's policies.
   *
   * @throws ChainException when the plan deploys no scaling (no measured units ratio)
   */
  public static Policies.PlanNumbers planNumbers(PlanArtifact p, InstanceModel model) {
    if (p.scalingTargetValue() == null || p.scaleInThreshold() == null) {
      throw new ChainException(
          "the plan has no scaling_target_value or scale_in_threshold (no measured units ratio),"
              + " so it deploys no scaling; re-run tts-bench qmax with the server metric joined");
    }
    PlanArtifact.Chosen chosen = p.inputs() == null ? null : p.inputs().chosen();
    double peak = chosen == null || chosen.peakRps() == null ? 0 : chosen.peakRps();
    double sMean =
        p.inputs() == null ? model.responseTimes().meanSeconds() : p.inputs().measured().sMeanS();
    return new Policies.PlanNumbers(
        p.minInstances(),
        p.maxInstances(),
        p.scalingTargetValue(),
        p.scaleInThreshold(),
        Duration.ofSeconds(p.scaleOutCooldownS()),
        Duration.ofSeconds(p.scaleInCooldownS()),
        p.cScaleMax(),
        peak,
        sMean,
        model.saturatedPerSecond(),
        ScaleInAlarm.ofLabel(p.scaleInAlarmChoice().label()));
  }

  /** Whole minutes at least {@code tTotalS}: how long before its hour a scheduled floor fires. */
  public static long floorLeadSeconds(double tTotalS) {
    return (long) Math.ceil(tTotalS / 60) * 60;
  }
}
