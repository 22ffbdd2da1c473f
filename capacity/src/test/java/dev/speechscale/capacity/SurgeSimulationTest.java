package dev.speechscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SurgeSimulationTest {

  private static SurgeSimulation kokoro(double surgeRatio, double horizon, long seed) {
    return new SurgeSimulation(
        new SurgeSimulation.Model(
            50,
            horizon,
            17.9,
            ServiceTimeDistribution.lognormal(0.0613, 0.0661),
            surgeRatio,
            1000,
            seed));
  }

  @Test
  void shedProbability_sameSeed_isIdentical() {
    assertThat(kokoro(1.25, 320.2, 3).shedProbability(3))
        .isEqualTo(kokoro(1.25, 320.2, 3).shedProbability(3));
  }

  @Test
  void shedProbability_publishedThreshold_alwaysSheds() {
    assertThat(kokoro(1.25, 320.2, SurgeSimulation.DEFAULT_SEED).shedProbability(37.5))
        .isEqualTo(1.0);
  }

  @Test
  void shedProbability_startingAtOrAboveDepth_isCertain() {
    assertThat(kokoro(1.25, 320.2, 1).shedProbability(50)).isEqualTo(1.0);
  }

  @Test
  void shedProbability_noTime_isZero() {
    assertThat(kokoro(1.25, 0, 1).shedProbability(37.5)).isZero();
  }

  @Test
  void surgeRate_isKTimesTheHoldingRate() {
    SurgeSimulation sim = kokoro(1.25, 320.2, 1);

    assertThat(sim.surgeRatePerSecond(10))
        .isCloseTo(1.25 * sim.holdingRatePerSecond(10), within(1e-12));
    assertThat(sim.holdingRatePerSecond(10)).isLessThan(17.9);
  }

  @Test
  void shedProbability_grows_withTheSurgeRatio() {
    double calm = kokoro(1.0, 320.2, 5).shedProbability(2);
    double surge = kokoro(1.25, 320.2, 5).shedProbability(2);

    assertThat(surge).isGreaterThan(calm);
  }

  @Test
  void largestSafeThreshold_isSafeAndTheNextWholeNumberIsNot() {
    SurgeSimulation sim = kokoro(1.25, 320.2, SurgeSimulation.DEFAULT_SEED);

    double c = sim.largestSafeThreshold(37.5, 0.10).orElseThrow();

    assertThat(c).isLessThan(37.5);
    assertThat(sim.shedProbability(c)).isLessThanOrEqualTo(0.10);
    assertThat(sim.shedProbability(c + 1)).isGreaterThan(0.10);
  }

  @Test
  void largestSafeThreshold_alreadySafe_returnsTheThresholdItself() {
    assertThat(kokoro(1.25, 0.1, 1).largestSafeThreshold(37.5, 0.10)).hasValue(37.5);
  }

  @Test
  void largestSafeThreshold_nothingSurvives_isEmpty() {
    SurgeSimulation sim =
        new SurgeSimulation(
            new SurgeSimulation.Model(
                2, 1e6, 1.0, ServiceTimeDistribution.lognormal(1.0, 3.0), 1.4, 200, 1));

    assertThat(sim.largestSafeThreshold(1.5, 0.01)).isEmpty();
  }

  @Test
  void shedProbability_exponentialService_agreesWithABirthDeathChain() {
    double[] exponential = new double[4096];
    for (int i = 0; i < exponential.length; i++) {
      exponential[i] = -Math.log(1 - (i + 0.5) / exponential.length);
    }
    SurgeSimulation sim =
        new SurgeSimulation(
            new SurgeSimulation.Model(
                10,
                20,
                1.0,
                ServiceTimeDistribution.ofQuantiles(exponential, "exponential"),
                1.2,
                4000,
                11));
    double lambda = sim.surgeRatePerSecond(5);

    double chain = birthDeathChain(lambda, 1.0 / sim.serviceMeanSeconds(), 5, 10, 20, 4000);

    assertThat(sim.shedProbability(5)).isCloseTo(chain, within(0.04));
  }

  /** An independent estimate: the M/M/1 queue as a continuous-time chain (Gillespie). */
  private static double birthDeathChain(
      double lambda, double mu, int start, int depth, double horizon, int trials) {
    SplitMix64 rng = new SplitMix64(99);
    int hits = 0;
    for (int trial = 0; trial < trials; trial++) {
      int n = start;
      double t = 0;
      while (true) {
        double rate = n > 0 ? lambda + mu : lambda;
        t += -Math.log1p(-rng.nextDouble()) / rate;
        if (t >= horizon) {
          break;
        }
        if (n == 0 || rng.nextDouble() < lambda / rate) {
          if (++n >= depth) {
            hits++;
            break;
          }
        } else {
          n--;
        }
      }
    }
    return (double) hits / trials;
  }
}
