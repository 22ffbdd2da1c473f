package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.chain.HostSpeedLogs;
import dev.speechscale.chain.InstanceSpeed;
import dev.speechscale.chain.Replay;
import dev.speechscale.simulator.FleetSimulator;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * What {@code replay}'s prediction starts from: the warm-up, the instances, history and speeds.
 * Option help: {@code flags.properties}.
 */
final class ReplayPredictionOptions {
  @Mixin WarmupOption warmup;

  @Option(
      names = Flags.INITIAL_INSTANCES,
      defaultValue = "fresh",
      paramLabel = "fresh|warm",
      converter = InitialInstancesChoice.class)
  Replay.InitialInstances initialInstances;

  @Option(names = Flags.PRE_ROLL, defaultValue = "live", paramLabel = "live|window|0s|DURATION")
  String preRoll;

  @Option(
      names = Flags.SPEED,
      defaultValue = "ladder",
      paramLabel = "ladder|warmup",
      converter = SpeedChoice.class)
  InstanceSpeed.Source speed;

  @Option(
      names = Flags.HOST_SPEED,
      defaultValue = "live",
      paramLabel = "live|off",
      converter = HostSpeedChoice.class)
  HostSpeedLogs.Source hostSpeed;

  static final class InitialInstancesChoice extends Choice<Replay.InitialInstances> {
    InitialInstancesChoice() {
      super(
          Map.of("fresh", Replay.InitialInstances.FRESH, "warm", Replay.InitialInstances.WARM),
          Flags.INITIAL_INSTANCES
              + " (%s) must be 'fresh' (deployed for the replay) or 'warm' (serving long before"
              + " it)");
    }
  }

  static final class SpeedChoice extends Choice<InstanceSpeed.Source> {
    SpeedChoice() {
      super(
          Map.of("ladder", InstanceSpeed.Source.LADDER, "warmup", InstanceSpeed.Source.WARMUP),
          Flags.SPEED + " (%s) must be 'warmup' or 'ladder'");
    }
  }

  static final class HostSpeedChoice extends Choice<HostSpeedLogs.Source> {
    HostSpeedChoice() {
      super(
          Map.of("live", HostSpeedLogs.Source.LIVE, "off", HostSpeedLogs.Source.OFF),
          Flags.HOST_SPEED + " (%s) must be 'live' or 'off'");
    }
  }

  /** The prediction, with the simulated metric publication {@code delay}. */
  Replay.Prediction prediction(CommandSpec spec, Duration delay) {
    return new Replay.Prediction(delay, history(spec), speed, hostSpeed, initialInstances);
  }

  private Replay.History history(CommandSpec spec) {
    if (preRoll.equals("live")) {
      return new Replay.History.Live();
    }
    if (preRoll.equals("window")) {
      return new Replay.History.Simulated(new FleetSimulator.PreRoll.Window());
    }
    Duration d =
        Durations.parse(
            spec, Flags.PRE_ROLL, preRoll, "'live', 'window', 0s or a duration such as 180s");
    return new Replay.History.Simulated(
        d.isZero() ? new FleetSimulator.PreRoll.None() : new FleetSimulator.PreRoll.Fixed(d));
  }

  /** The options as the artifact's parameters record them ({@code WARM} and {@code warm} alike). */
  void record(Map<String, Object> params) {
    params.put("pre_roll", preRoll);
    params.put("warmup_s", warmup.value.toMillis() / 1000.0);
    params.put("speed", speed.name().toLowerCase(Locale.ROOT));
    params.put("host_speed", hostSpeed.label());
    params.put("initial_instances", initialInstances.name().toLowerCase(Locale.ROOT));
  }
}
