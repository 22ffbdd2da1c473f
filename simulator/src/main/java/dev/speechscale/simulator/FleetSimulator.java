package dev.speechscale.simulator;

import dev.speechscale.platform.MetricQuery;
import java.time.Duration;
import java.util.List;
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
   * @param preRoll the warm history simulated before t = 0
   * @param hostSpeeds how fast the instances' hosts ran over the trace ({@link HostSpeeds#NONE}: at
   *     the speed the model was measured at)
   * @param initialServed how many requests each initial instance has served before t = 0, where its
   *     model's cold start goes on from ({@link #INITIAL_WARM}: warm, a fleet long running; a
   *     replay's instance, deployed fresh and warmed for 20 s, has served a few hundred)
   */
  public record Options(
      double sloMs,
      Duration metricPublicationDelay,
      long seed,
      PreRoll preRoll,
      HostSpeeds hostSpeeds,
      long initialServed,
      StartPhysics startPhysics) {
    /** The initial instances are warm: past any cold start. */
    public static final long INITIAL_WARM = -1;

    /** Starts that take the measured delay and never fail ({@link StartPhysics#NONE}). */
    public Options(
        double sloMs,
        Duration metricPublicationDelay,
        long seed,
        PreRoll preRoll,
        HostSpeeds hostSpeeds,
        long initialServed) {
      this(
          sloMs,
          metricPublicationDelay,
          seed,
          preRoll,
          hostSpeeds,
          initialServed,
          StartPhysics.NONE);
    }

    public Options {
      Objects.requireNonNull(startPhysics, "startPhysics");
      Objects.requireNonNull(metricPublicationDelay, "metricPublicationDelay");
      Objects.requireNonNull(preRoll, "preRoll");
      Objects.requireNonNull(hostSpeeds, "hostSpeeds");
      if (initialServed < INITIAL_WARM) {
        throw new SimulatorException(
            "the initial instances' requests served ("
                + initialServed
                + ") must be at least 0, or INITIAL_WARM");
      }
      if (!(sloMs > 0) || Double.isInfinite(sloMs)) {
        throw new SimulatorException("SLO (" + sloMs + " ms) must be finite and positive");
      }
      if (metricPublicationDelay.isNegative()) {
        throw new SimulatorException(
            "--metric-delay (" + metricPublicationDelay + ") must be at least 0");
      }
    }

    /** Hosts at the model's speed throughout. */
    public Options(double sloMs, Duration metricPublicationDelay, long seed, PreRoll preRoll) {
      this(sloMs, metricPublicationDelay, seed, preRoll, HostSpeeds.NONE, INITIAL_WARM);
    }

    /** Without a pre-roll: the run starts at t = 0 with no metric history. */
    public Options(double sloMs, Duration metricPublicationDelay, long seed) {
      this(sloMs, metricPublicationDelay, seed, new PreRoll.None());
    }

    /** These options with the hosts' speeds over the trace. */
    public Options withHostSpeeds(HostSpeeds speeds) {
      return new Options(
          sloMs, metricPublicationDelay, seed, preRoll, speeds, initialServed, startPhysics);
    }

    /** These options with another pre-roll. */
    public Options withPreRoll(PreRoll other) {
      return new Options(
          sloMs, metricPublicationDelay, seed, other, hostSpeeds, initialServed, startPhysics);
    }

    /** These options with initial instances that have served {@code requests} each before t = 0. */
    public Options withInitialServed(long requests) {
      return new Options(
          sloMs, metricPublicationDelay, seed, preRoll, hostSpeeds, requests, startPhysics);
    }

    /** These options with start jitter and a capacity limit ({@link StartPhysics}). */
    public Options withStartPhysics(StartPhysics physics) {
      return new Options(
          sloMs, metricPublicationDelay, seed, preRoll, hostSpeeds, initialServed, physics);
    }
  }

  /**
   * The warm history simulated before t = 0: the fleet at the policy's starting count serves
   * Poisson arrivals at the trace's first rate ({@link Traffic#firstRatePerSecond()}), its metric
   * samples are recorded and its policy decides and acts, but nothing is tallied: no arrival,
   * sample of TTFAB, instance-second, cost or scaling event of the pre-roll reaches the result.
   * Only the metric history, the scaling engine's state (alarms, cooldowns) and the fleet it left
   * (instances, in-flight requests) carry over. The pre-roll draws from its own random streams, so
   * the arrivals from t = 0 on are the very ones a run without it sees.
   */
  public sealed interface PreRoll {
    /** No pre-roll: every alarm starts with INSUFFICIENT_DATA. */
    record None() implements PreRoll {}

    /**
     * As long as the policy's longest alarm evaluation window (its periods × datapoints, plus the
     * metric publication delay rounded up to a whole period), so every alarm has its full history
     * at t = 0: 180 s for the plan's rules (Average over 3 × 60 s), 900 s for AWS target tracking's
     * scale-in (15 × 60 s), none for a fixed fleet.
     */
    record Window() implements PreRoll {}

    /**
     * A pre-roll of {@code length}.
     *
     * @param length whole seconds, at least 0
     */
    record Fixed(Duration length) implements PreRoll {
      public Fixed {
        Objects.requireNonNull(length, "length");
        if (length.isNegative() || length.toMillis() % 1000 != 0) {
          throw new SimulatorException(
              "--pre-roll ("
                  + length
                  + ") must be a whole number of seconds, at least 0 (or 'window' for the"
                  + " policy's longest alarm window)");
        }
      }
    }

    /**
     * The fleet's own metric history before t = 0, as its platform recorded it, instead of a
     * simulated one: {@code replay} reads it from the live endpoint, so the simulated alarms start
     * with exactly the periods the live alarms had (a warm-up, an idle wait, or no data at all
     * before the endpoint was in service). Nothing is simulated before t = 0: the fleet starts at
     * the policy's starting count with nothing in flight, and the scaler has taken no action.
     *
     * <p>Only ConcurrentRequestsPerModel is recorded (the plan's rules read nothing else); the
     * other metrics have no samples before t = 0.
     *
     * @param concurrencyPerInstance ConcurrentRequestsPerModel of seconds −n … −1, oldest first;
     *     {@link Double#NaN} for a second without a sample (no instance in service)
     * @param source where it was read, for the artifact
     */
    record Recorded(List<Double> concurrencyPerInstance, String source) implements PreRoll {
      public Recorded {
        concurrencyPerInstance = List.copyOf(concurrencyPerInstance);
        Objects.requireNonNull(source, "source");
        for (int i = 0; i < concurrencyPerInstance.size(); i++) {
          double v = concurrencyPerInstance.get(i);
          if (v < 0 || Double.isInfinite(v)) {
            throw new SimulatorException(
                "recorded "
                    + MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName()
                    + " at second "
                    + (i - concurrencyPerInstance.size())
                    + " ("
                    + v
                    + ") must be finite and at least 0, or NaN for no sample ("
                    + source
                    + ")");
          }
        }
      }
    }

    /** The pre-roll's length in whole seconds for {@code policy}. */
    default long seconds(Policy policy, Duration metricPublicationDelay) {
      return switch (this) {
        case None n -> 0;
        case Fixed f -> f.length().toSeconds();
        case Window w -> Scalers.longestWindowSeconds(policy, metricPublicationDelay);
        case Recorded r -> r.concurrencyPerInstance().size();
      };
    }

    /**
     * As written in artifacts and on the command line: {@code 0}, {@code window}, seconds or {@code
     * live}.
     */
    default String label() {
      return switch (this) {
        case None n -> "0";
        case Fixed f -> Long.toString(f.length().toSeconds());
        case Window w -> "window";
        case Recorded r -> "live";
      };
    }
  }

  /** Simulates {@code policy} over the whole of {@code traffic}. */
  public static PolicyResult run(
      InstanceModel model, Traffic traffic, Policy policy, Options options, Progress progress) {
    return new FleetRun(model, traffic, policy, Scalers.of(policy), options, progress).run();
  }
}
