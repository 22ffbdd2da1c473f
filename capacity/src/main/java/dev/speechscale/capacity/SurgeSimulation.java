package dev.speechscale.capacity;

import java.util.OptionalDouble;

/**
 * Whether one instance survives a surge while its replacement starts: the probability that its
 * queue reaches Q_max before T elapses, starting from a scale-out threshold.
 *
 * <p>The instance is a FIFO queue whose service times are drawn from the measured distribution,
 * scaled so their mean is {@code 1 / capacity} (capacity = the highest throughput the ladder
 * measured, so an engine that pipelines or runs several requests at once is modelled at the rate it
 * really completes them). Arrivals are Poisson at <b>k × the rate that holds the threshold</b> in
 * steady state (M/G/1, Pollaczek–Khinchine, with the measured service-time CV); the published
 * simulation runs at the holding rate itself and so never simulates a surge at all.
 *
 * <p>Each trial starts with {@code round(threshold)} requests in the system and follows arrivals
 * with the Lindley recursion (a departure time per request), which is exact for a single FIFO
 * server and costs O(1) per arrival. Every evaluation reuses the same seed (common random numbers),
 * so the probability is deterministic and monotone enough in the threshold to bisect.
 */
public final class SurgeSimulation {
  /** Default number of simulated surges; the standard error at P = 0.1 is about 1 point. */
  public static final int DEFAULT_TRIALS = 1000;

  /** Default seed; any fixed value works, this one is recorded in every plan. */
  public static final long DEFAULT_SEED = 20_260_804L;

  private final Model model;
  private final ServiceTimeDistribution service;
  private final double cv;

  /**
   * What the simulation needs.
   *
   * @param qMax the depth at which the instance sheds (its queue bound)
   * @param horizonSeconds T, the planned-against scale-out time
   * @param capacityPerSecond requests per second one instance completes at saturation
   * @param serviceTimes the measured service-time shape
   * @param surgeRatio k
   * @param trials simulated surges per evaluation (at least 1)
   * @param seed the generator's seed
   */
  public record Model(
      double qMax,
      double horizonSeconds,
      double capacityPerSecond,
      ServiceTimeDistribution serviceTimes,
      double surgeRatio,
      int trials,
      long seed) {
    public Model {
      if (!(qMax >= 1)) {
        throw new CapacityException("Q_max (" + qMax + ") must be at least 1 to simulate a surge");
      }
      if (!(horizonSeconds >= 0) || Double.isInfinite(horizonSeconds)) {
        throw new CapacityException("T (" + horizonSeconds + " s) must be finite and >= 0");
      }
      if (!(capacityPerSecond > 0) || Double.isInfinite(capacityPerSecond)) {
        throw new CapacityException(
            "capacity (" + capacityPerSecond + " req/s) must be finite and positive");
      }
      if (trials < 1) {
        throw new CapacityException("trials (" + trials + ") must be at least 1");
      }
    }
  }

  public SurgeSimulation(Model model) {
    this.model = model;
    this.service = model.serviceTimes().scaledToMean(1.0 / model.capacityPerSecond());
    this.cv = model.serviceTimes().coefficientOfVariation();
  }

  /** The steady arrival rate at which the mean number in system equals {@code threshold}. */
  public double holdingRatePerSecond(double threshold) {
    return Utilization.mg1(threshold, cv) * model.capacityPerSecond();
  }

  /** The surge: k × the holding rate. */
  public double surgeRatePerSecond(double threshold) {
    return model.surgeRatio() * holdingRatePerSecond(threshold);
  }

  /** P(the queue reaches Q_max within T) starting at {@code threshold} under the surge. */
  public double shedProbability(double threshold) {
    return (double) hits(threshold, Integer.MAX_VALUE) / model.trials();
  }

  /**
   * The largest threshold whose shed probability is at most {@code target}: {@code upper} itself
   * when it already is, else the largest whole number below it, else empty when not even one
   * request in flight survives.
   */
  public OptionalDouble largestSafeThreshold(double upper, double target) {
    if (!(target >= 0 && target <= 1)) {
      throw new CapacityException("shed target (" + target + ") must be in [0, 1]");
    }
    int allowedHits = (int) Math.floor(target * model.trials() + 1e-9);
    if (hits(upper, allowedHits) <= allowedHits) {
      return OptionalDouble.of(upper);
    }
    int safe = 0;
    int unsafe = (int) Math.ceil(upper);
    while (unsafe - safe > 1) {
      int mid = (safe + unsafe) >>> 1;
      if (hits(mid, allowedHits) <= allowedHits) {
        safe = mid;
      } else {
        unsafe = mid;
      }
    }
    return safe == 0 ? OptionalDouble.empty() : OptionalDouble.of(safe);
  }

  public int trials() {
    return model.trials();
  }

  public double serviceCv() {
    return cv;
  }

  /** Mean of the service times the simulation draws (1 / capacity). */
  public double serviceMeanSeconds() {
    return service.meanSeconds();
  }

  /** Counts trials that reach Q_max, stopping early once more than {@code stopAbove} have. */
  private int hits(double threshold, int stopAbove) {
    int depth = (int) Math.ceil(model.qMax());
    int start = (int) Math.round(threshold);
    if (start >= depth) {
      return model.trials();
    }
    double lambda = surgeRatePerSecond(threshold);
    if (lambda <= 0 || model.horizonSeconds() == 0) {
      return 0;
    }
    SplitMix64 rng = new SplitMix64(model.seed());
    double[] departures = new double[depth];
    int hits = 0;
    for (int trial = 0; trial < model.trials() && hits <= stopAbove; trial++) {
      if (reachesDepth(rng, departures, depth, start, lambda)) {
        hits++;
      }
    }
    return hits;
  }

  private boolean reachesDepth(
      SplitMix64 rng, double[] departures, int depth, int start, double lambda) {
    int head = 0;
    int count = 0;
    double lastDeparture = 0;
    for (int i = 0; i < start; i++) {
      lastDeparture += service.sample(rng.nextDouble());
      departures[(head + count++) % depth] = lastDeparture;
    }
    double now = 0;
    double horizon = model.horizonSeconds();
    while (true) {
      now += -Math.log1p(-rng.nextDouble()) / lambda;
      if (now >= horizon) {
        return false;
      }
      while (count > 0 && departures[head] <= now) {
        head = (head + 1) % depth;
        count--;
      }
      lastDeparture = Math.max(now, lastDeparture) + service.sample(rng.nextDouble());
      departures[(head + count++) % depth] = lastDeparture;
      if (count >= depth) {
        return true;
      }
    }
  }
}
