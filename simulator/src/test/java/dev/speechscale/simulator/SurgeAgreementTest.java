package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.capacity.ServiceTimeDistribution;
import dev.speechscale.capacity.SurgeSimulation;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The fleet model against capacity's {@link SurgeSimulation} on the question they share: does one
 * instance's queue reach depth Q within T at a given arrival rate? SurgeSimulation counts a trial
 * when an arrival brings the instance to Q; the fleet model's gate with depth Q − 1 sheds exactly
 * the arrivals that find Q − 1 already there, so "at least one shed" is the same event.
 */
class SurgeAgreementTest {
  private static final int DEPTH = 6;
  private static final double CAPACITY = 10;
  private static final double HORIZON_S = 60;
  private static final int RUNS = 400;

  @Test
  void probabilityOfReachingDepth_agreesWithSurgeSimulationWithinFourPoints() {
    ServiceTimeDistribution shape = ServiceTimeDistribution.lognormal(0.0613, 0.0661);
    SurgeSimulation surge =
        new SurgeSimulation(
            new SurgeSimulation.Model(DEPTH, HORIZON_S, CAPACITY, shape, 1.4, 4000, 5));
    double threshold = 0.4; // starts empty (round(0.4) = 0), like a fresh fleet run
    double lambda = surge.surgeRatePerSecond(threshold);
    double expected = surge.shedProbability(threshold);

    InstanceModel m =
        new InstanceModel(
            1,
            shape.scaledToMean(1 / CAPACITY),
            1.0,
            1.0,
            DEPTH - 1,
            Duration.ofDays(1),
            Duration.ZERO,
            "surge agreement");
    Traffic t = Traffic.constant(lambda, Duration.ofSeconds((long) HORIZON_S));
    int hits = 0;
    for (int seed = 0; seed < RUNS; seed++) {
      PolicyResult r =
          FleetSimulator.run(
              m,
              t,
              new Policy.Fixed(1),
              new FleetSimulator.Options(1000, Duration.ZERO, 1000 + seed),
              Progress.none());
      if (r.shedQueueFull() > 0) {
        hits++;
      }
    }

    // at P ≈ 0.21 (seeded: 0.211 expected, 0.200 measured) 400 runs have a standard error of 2.0
    // points and the reference's 4000 trials 0.65: four points is about two standard errors
    assertThat(expected).isBetween(0.1, 0.9);
    assertThat((double) hits / RUNS).isCloseTo(expected, within(0.04));
  }
}
