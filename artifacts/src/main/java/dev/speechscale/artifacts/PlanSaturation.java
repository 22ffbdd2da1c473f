package dev.speechscale.artifacts;

import dev.speechscale.simulator.InstanceModel;

/** Where the simulator's X_sat comes from, given a plan artifact. */
public final class PlanSaturation {
  private PlanSaturation() {}

  /**
   * The plan's X(C_scale_max) when it recorded one (every scalable plan does), else the ladder's
   * plateau.
   */
  public static InstanceModel.Saturation of(PlanArtifact plan) {
    Double x = plan.throughputAtCScaleMaxRps();
    return x == null
        ? new InstanceModel.Saturation.Plateau()
        : new InstanceModel.Saturation.PlanPoint(plan.cScaleMax(), x);
  }
}
