package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.capacity.ServiceTimeDistribution;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The model against queueing theory: one instance with no gate and one slot is an M/G/1 FIFO queue,
 * so its mean TTFAB (wait + service, first byte at the end of service) must match
 * Pollaczek–Khinchine, {@code W = E[S] + λE[S²]/(2(1 − ρ))}, and its sojourn time in M/M/1 is
 * exponential with rate μ − λ. Two million arrivals at a fixed seed; tolerances are about three
 * standard errors of the run (stated per test).
 */
class ClosedFormTest {
  private static final int TABLE = 4096;
  private static final double SERVICE_MEAN_S = 0.001;
  private static final double RATE_PER_S = 800;
  private static final Duration RUN = Duration.ofSeconds(2500);

  private static double[] exponentialQuantiles() {
    double[] q = new double[TABLE];
    for (int i = 0; i < TABLE; i++) {
      q[i] = -Math.log1p(-(i + 0.5) / TABLE) * SERVICE_MEAN_S;
    }
    return q;
  }

  private static InstanceModel single(ServiceTimeDistribution s, int slots) {
    return new InstanceModel(
        slots, s, 1.0, 1.0, 0, Duration.ofDays(1), Duration.ZERO, "closed-form test");
  }

  private static PolicyResult run(InstanceModel model, double ratePerS, long seed) {
    return FleetSimulator.run(
        model,
        Traffic.constant(ratePerS, RUN),
        new Policy.Fixed(1),
        new FleetSimulator.Options(1000, Duration.ZERO, seed),
        Progress.none());
  }

  /** P-K mean sojourn with the table's own moments (the table is what the model draws from). */
  private static double pollaczekKhinchineMs(ServiceTimeDistribution s, double lambda) {
    double m1 = 0;
    double m2 = 0;
    for (int i = 0; i < TABLE; i++) {
      double v = s.sample((i + 0.5) / TABLE);
      m1 += v / TABLE;
      m2 += v * v / TABLE;
    }
    double rho = lambda * m1;
    return (m1 + lambda * m2 / (2 * (1 - rho))) * 1000;
  }

  @Test
  void meanTtfab_mm1AtRho08_matchesPollaczekKhinchineWithin3Percent() {
    ServiceTimeDistribution s = ServiceTimeDistribution.ofQuantiles(exponentialQuantiles(), "exp");
    PolicyResult r = run(single(s, 1), RATE_PER_S, 11);

    double expected = pollaczekKhinchineMs(s, RATE_PER_S);
    assertThat(expected).isCloseTo(5.0, within(0.1)); // 1/(μ − λ) = 5 ms for the ideal M/M/1
    assertThat(r.ttfabMeanMs()).isCloseTo(expected, within(0.03 * expected));
  }

  @Test
  void ttfabQuantiles_mm1AtRho08_matchExponentialSojournWithin5Percent() {
    PolicyResult r =
        run(
            single(ServiceTimeDistribution.ofQuantiles(exponentialQuantiles(), "exp"), 1),
            RATE_PER_S,
            12);

    // sojourn ~ Exp(μ − λ) with mean 5 ms: p50 = 5 ln 2, p95 = 5 ln 20, p99 = 5 ln 100
    assertThat(r.ttfabP50Ms()).isCloseTo(5 * Math.log(2), within(0.05 * 5 * Math.log(2)));
    assertThat(r.ttfabP95Ms()).isCloseTo(5 * Math.log(20), within(0.05 * 5 * Math.log(20)));
    assertThat(r.ttfabP99Ms()).isCloseTo(5 * Math.log(100), within(0.05 * 5 * Math.log(100)));
  }

  @Test
  void meanTtfab_md1AtRho08_matchesPollaczekKhinchineWithin2Percent() {
    double[] constant = new double[TABLE];
    java.util.Arrays.fill(constant, SERVICE_MEAN_S);
    PolicyResult r =
        run(single(ServiceTimeDistribution.ofQuantiles(constant, "deterministic"), 1), 800, 13);

    // M/D/1: W = S + ρS/(2(1 − ρ)) = 1 ms + 0.8/(0.4) ms = 3 ms
    assertThat(r.ttfabMeanMs()).isCloseTo(3.0, within(0.06));
  }

  @Test
  void meanNumberInSystem_md1_matchesLittleAndPollaczekKhinchine() {
    double[] constant = new double[TABLE];
    java.util.Arrays.fill(constant, SERVICE_MEAN_S);
    PolicyResult r =
        run(single(ServiceTimeDistribution.ofQuantiles(constant, "deterministic"), 1), 600, 14);

    // L = ρ + ρ²/(2(1 − ρ)) at ρ = 0.6: 0.6 + 0.36/0.8 = 1.05; Little: L = λW
    double lambda = (double) r.arrived() / RUN.toSeconds();
    assertThat(lambda * r.ttfabMeanMs() / 1000).isCloseTo(1.05, within(0.02));
  }

  @Test
  void meanTtfab_twoSlotsExponential_matchesErlangCWithin3Percent() {
    ServiceTimeDistribution s = ServiceTimeDistribution.ofQuantiles(exponentialQuantiles(), "exp");
    PolicyResult r = run(single(s, 2), 1600, 15);

    // M/M/2 at ρ = 0.8: P(wait) = 2ρ²/(1 + ρ) = 0.7111, Wq = P(wait)/(cμ − λ) = 0.7111/400 s
    double expectedMs = SERVICE_MEAN_S * 1000 + 0.7111111 / 400 * 1000;
    assertThat(r.ttfabMeanMs()).isCloseTo(expectedMs, within(0.03 * expectedMs));
  }
}
