package dev.speechscale.simulator;

import java.time.Duration;
import java.util.Objects;

/**
 * Runs a policy over traffic on a fleet of measured instances. Pure and deterministic: the same
 * model, traffic, policy and options give the same result, bit for bit, on every run.
 */
public final class FleetSimulator {
  private FleetSimulator() {}

  /**
   * How the run is set up.
   *
   * @param sloMs the p95 TTFAB promise; a served request counts toward attainment when its TTFAB is
   *     at most this
   * @param metricPublicationDelay how long after a period ends its datapoint can be read (0
   *     locally; CloudWatch publishes a minute or more late)
   * @param seed arrivals and service times; every policy sees the same arrivals
   */
  public record Options(double sloMs, Duration metricPublicationDelay, long seed) {
    public Options {
      Objects.requireNonNull(metricPublicationDelay, "metricPublicationDelay");
      if (!(sloMs > 0) || Double.isInfinite(sloMs)) {
        throw new SimulatorException("SLO (" + sloMs + " ms) must be finite and positive");
      }
      if (metricPublicationDelay.isNegative()) {
        throw new SimulatorException(
            "--metric-delay (" + metricPublicationDelay + ") must be at least 0");
      }
    }
  }

  /** Simulates {@code policy} over the whole of {@code traffic}. */
  public static PolicyResult run(
      InstanceModel model, Traffic traffic, Policy policy, Options options, Progress progress) {
    return new FleetRun(model, traffic, policy, Scalers.of(policy), options, progress).run();
  }
}
