package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.chain.HostSpeedLogs;
import dev.speechscale.chain.InstanceSpeed;
import dev.speechscale.chain.Replay;
import dev.speechscale.simulator.FleetSimulator;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** What {@code replay}'s prediction starts from: the warm-up, the instances, history and speeds. */
final class ReplayPredictionOptions {
  @Option(
      names = Flags.WARMUP,
      defaultValue = "20s",
      paramLabel = "DURATION",
      description =
          "load sent at N=4 (below the deployed target) before the trace and not measured, so the"
              + " trace does not start on a cold instance; 0s for none (default ${DEFAULT-VALUE})")
  Duration warmup;

  @Option(
      names = Flags.INITIAL_INSTANCES,
      defaultValue = "fresh",
      paramLabel = "fresh|warm",
      converter = InitialInstancesChoice.class,
      description =
          "what the endpoint's instances had served when the replay began: 'fresh' (default)"
              + " deployed for it, so the prediction's go on along the scale-out's cold start (the"
              + " ttotal artifact's new instance) from the requests the warm-up served (after 20 s"
              + " still 5-20 %% slower than qmax's ladder instance on the local fleet); 'warm' long"
              + " in service before it, as warm as qmax's ladder instance")
  Replay.InitialInstances initialInstances;

  @Option(
      names = Flags.PRE_ROLL,
      defaultValue = "live",
      paramLabel = "live|window|0s|DURATION",
      description =
          "the metric history the prediction starts from: 'live' (default) the endpoint's own,"
              + " read back from the platform, so the predicted alarms start with the periods the"
              + " live ones had; 'window' a simulated quiet spell at the trace's first rate as long"
              + " as the policy's longest alarm window; 0s none")
  String preRoll;

  @Option(
      names = Flags.SPEED,
      defaultValue = "ladder",
      paramLabel = "ladder|warmup",
      converter = SpeedChoice.class,
      description =
          "the instance's speed for the prediction: 'ladder' (default) the ladder's X_sat as"
              + " measured; 'warmup' scales it by what the instance served in the warm-up's second"
              + " half against the ladder's X at the same N. Either way the warm-up's speed is"
              + " recorded: on a freshly deployed instance it reads the instance still warming"
              + " (x0.73 in a quiet quickstart whose surge then served faster than the ladder)")
  InstanceSpeed.Source speed;

  @Option(
      names = Flags.HOST_SPEED,
      defaultValue = "live",
      paramLabel = "live|off",
      converter = HostSpeedChoice.class,
      description =
          "the hosts' speed: 'live' (default) probes the cores the instances run on during the run"
              + " (local platform) and slows each simulated instance by its host's time over the"
              + " speed qmax's ladder ran at (the qmax artifact's host_speed), second by second;"
              + " 'off' neither probes nor applies. Not applied, and said why, when either side"
              + " has no probe")
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
    params.put("warmup_s", warmup.toMillis() / 1000.0);
    params.put("speed", speed.name().toLowerCase(Locale.ROOT));
    params.put("host_speed", hostSpeed.label());
    params.put("initial_instances", initialInstances.name().toLowerCase(Locale.ROOT));
  }
}
