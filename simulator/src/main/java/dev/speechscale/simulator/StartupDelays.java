package dev.speechscale.simulator;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The start-up delays (scaling decision to in service) measured by one or more ttotal runs; each
 * new simulated instance draws one of them, equally likely, from its own seeded stream.
 *
 * @param samples the measured delays, in the order given
 */
public record StartupDelays(List<Duration> samples) {
  public StartupDelays {
    samples = List.copyOf(samples);
    if (samples.isEmpty()) {
      throw new SimulatorException(
          "the start-up delay needs at least one measured desired_set -> in_service (give"
              + " --ttotal)");
    }
    for (Duration d : samples) {
      Objects.requireNonNull(d, "start-up delay");
      if (d.isNegative()) {
        throw new SimulatorException("start-up delay (" + d + ") must be at least 0");
      }
    }
  }

  /** One delay, always the same. */
  public static StartupDelays fixed(Duration delay) {
    return new StartupDelays(List.of(delay));
  }

  /** The samples in seconds. */
  public double[] seconds() {
    double[] s = new double[samples.size()];
    for (int i = 0; i < s.length; i++) {
      s[i] = samples.get(i).toNanos() / 1e9;
    }
    return s;
  }

  /** The mean delay in seconds. */
  public double meanSeconds() {
    double sum = 0;
    for (double s : seconds()) {
      sum += s;
    }
    return sum / samples.size();
  }
}
