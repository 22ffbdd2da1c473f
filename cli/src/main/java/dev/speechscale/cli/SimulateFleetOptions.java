package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.Policies;
import dev.speechscale.simulator.SimulatorException;
import dev.speechscale.simulator.StartPhysics;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * How {@code simulate} runs the fleet: which policies, the seed, the metric delay, the instances'
 * start jitter and capacity limit ({@link StartPhysics}), the warm history before t = 0, the
 * server's deadline and the instance-hour's price. Option help: {@code flags.properties}.
 */
final class SimulateFleetOptions {
  @Option(names = Flags.POLICIES, defaultValue = "plan,naive,invocations,cpu", paramLabel = "LIST")
  String policies;

  @Mixin SeedOption seed;

  @Mixin MetricDelayOption metricDelay;

  @Option(names = Flags.INSTANCE_START_JITTER, defaultValue = "0s", paramLabel = "DURATION")
  Duration instanceStartJitter;

  @Option(names = Flags.CAPACITY_LIMIT, defaultValue = "0", paramLabel = "N")
  int capacityLimit;

  @Option(names = Flags.PRE_ROLL, defaultValue = "window", paramLabel = "window|DURATION")
  String preRoll;

  @Mixin MaxRequestAgeOption maxRequestAge;

  @Option(names = Flags.PRICE_PER_HOUR, paramLabel = "N")
  @Nullable Double pricePerHour;

  /** Refuses what no run could use, before any file is read. */
  void validate(CommandSpec spec) {
    try {
      Policies.names(policies);
    } catch (SimulatorException e) {
      throw Cli.usage(spec, Cli.message(e));
    }
    Duration delay = metricDelay.given;
    if (delay != null && delay.isNegative()) {
      throw Cli.usage(spec, Flags.METRIC_DELAY + " (" + delay + ") must be at least 0s");
    }
    if (instanceStartJitter.isNegative()) {
      throw Cli.usage(
          spec,
          Flags.INSTANCE_START_JITTER
              + " ("
              + instanceStartJitter
              + ") must be at least 0s; 0s turns it off");
    }
    if (capacityLimit < 0) {
      throw Cli.usage(
          spec, Flags.CAPACITY_LIMIT + " (" + capacityLimit + ") must be at least 0; 0 = no limit");
    }
    Duration age = maxRequestAge.value;
    if (age.isNegative() || age.isZero()) {
      throw Cli.usage(spec, Flags.MAX_REQUEST_AGE + " (" + age + ") must be positive, e.g. 56s");
    }
    if (pricePerHour != null && !(pricePerHour >= 0 && !pricePerHour.isInfinite())) {
      throw Cli.usage(spec, Flags.PRICE_PER_HOUR + " (" + pricePerHour + ") must be a number >= 0");
    }
  }

  /**
   * The simulator's options for an SLO of {@code sloMs}, the metric delay the one given, else that
   * of the {@code platform} the artifacts were measured on ({@link MetricPhysics}).
   */
  FleetSimulator.Options options(double sloMs, String platform, CommandSpec spec) {
    return new FleetSimulator.Options(
            sloMs, metricDelay.resolved(platform), seed.value, preRoll(spec))
        .withStartPhysics(new StartPhysics(instanceStartJitter, capacityLimit));
  }

  /** {@code --pre-roll}: {@code window}, or whole seconds ({@code 0s}: none). */
  private FleetSimulator.PreRoll preRoll(CommandSpec spec) {
    if (preRoll.strip().equalsIgnoreCase("window")) {
      return new FleetSimulator.PreRoll.Window();
    }
    Duration d =
        Durations.parse(
            spec,
            Flags.PRE_ROLL,
            preRoll,
            "'window' or a duration in whole seconds, e.g. 180s or 0s");
    try {
      return d.isZero() ? new FleetSimulator.PreRoll.None() : new FleetSimulator.PreRoll.Fixed(d);
    } catch (SimulatorException e) {
      throw Cli.usage(spec, Cli.message(e));
    }
  }

  /** The options as the artifact's parameters record them. */
  void record(Map<String, Object> m, String platform) {
    m.put("policies", policies);
    m.put("seed", seed.value);
    m.put("metric_delay", metricDelay.resolved(platform).toString());
    m.put("metric_delay_source", MetricPhysics.source(metricDelay.given, platform));
    m.put("pre_roll", preRoll);
    // recorded only when on, so a run without them writes the artifact it always wrote
    if (!instanceStartJitter.isZero()) {
      m.put("instance_start_jitter", instanceStartJitter.toString());
    }
    if (capacityLimit > 0) {
      m.put("capacity_limit", capacityLimit);
    }
    m.put("max_request_age", maxRequestAge.value.toString());
    m.put("price_per_hour", pricePerHour);
  }
}
