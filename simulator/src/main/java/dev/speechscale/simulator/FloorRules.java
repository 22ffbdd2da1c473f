package dev.speechscale.simulator;

import dev.speechscale.scaling.ScalingRules;
import java.util.List;

/** Puts scheduled floors on the shared engine's rules. */
final class FloorRules {
  private FloorRules() {}

  /** Whether the engine applies scheduled floors (the scaling module has them). */
  static boolean supported() {
    return false;
  }

  static ScalingRules apply(ScalingRules rules, List<Floors.Floor> floors) {
    if (floors.isEmpty()) {
      return rules;
    }
    throw new dev.speechscale.simulator.SimulatorException(
        "scheduled floors need the scaling engine's ScheduledFloor, which this build lacks");
  }
}
