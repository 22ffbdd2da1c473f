package dev.speechscale.simulator;

import dev.speechscale.scaling.ScalingRules;
import dev.speechscale.scaling.ScheduledFloor;
import java.util.List;

/** Puts the search's scheduled floors on the shared engine's rules ({@link ScheduledFloor}). */
final class FloorRules {
  private FloorRules() {}

  /** Whether the engine applies scheduled floors: it does since {@link ScheduledFloor}. */
  static boolean supported() {
    return true;
  }

  static ScalingRules apply(ScalingRules rules, List<Floors.Floor> floors) {
    if (floors.isEmpty()) {
      return rules;
    }
    return rules.withFloors(
        floors.stream().map(f -> new ScheduledFloor(f.secondOfDay(), f.minCapacity())).toList());
  }
}
