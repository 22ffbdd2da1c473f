package dev.speechscale.simulator;

/** The decision procedure for each kind of {@link Policy}. */
final class Scalers {
  private Scalers() {}

  static Scaler of(Policy policy) {
    return switch (policy) {
      case Policy.Fixed fixed ->
          (nowMs, samples, desired, inService) -> new Scaler.Step(desired, "");
      case Policy.Planned p -> unavailable(p);
      case Policy.PublishedSizing p -> unavailable(p);
      case Policy.InvocationsTracking p -> unavailable(p);
      case Policy.CpuTracking p -> unavailable(p);
    };
  }

  private static Scaler unavailable(Policy p) {
    throw new SimulatorException(
        p.name() + ": the shared scaling semantics (module scaling) are not merged yet");
  }
}
