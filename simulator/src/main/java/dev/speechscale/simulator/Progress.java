package dev.speechscale.simulator;

/** Where a long run reports how far it got (the CLI prints it on stderr). */
@FunctionalInterface
public interface Progress {
  /** Called about once per simulated hour and once at the end. */
  void update(String policy, long simulatedSeconds, long totalSeconds);

  /** Reports nothing. */
  static Progress none() {
    return (policy, simulated, total) -> {};
  }
}
