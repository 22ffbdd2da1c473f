package dev.speechscale.chain;

import dev.speechscale.artifacts.StartupDelaySamples;
import java.nio.file.Path;

/**
 * The command lines that rerun {@code quickstart}'s deployments, drift, plan and replay on their
 * own, with the files this run wrote, as the summary and the report print them (qmax, ttotal and
 * validate rerun their request's {@code commandLine()}).
 *
 * @param o what the run ran
 * @param config the measurement config it wrote
 */
record QuickstartRerun(QuickstartRun.Options o, Path config) {

  String deploy() {
    return line("bin/speech-infra deploy", endpoint(config));
  }

  String drift() {
    return line("bin/tts-bench drift", endpoint(config));
  }

  String plan(Path qmaxFile, Path ttotalFile, double peakRps, Path planFile) {
    return line(
        "bin/tts-bench plan",
        new Args()
            .add(Flags.QMAX, qmaxFile)
            .add(Flags.TTOTAL, ttotalFile)
            .add(Flags.PEAK_RPS, (long) peakRps)
            .add(Flags.OUTPUT, planFile));
  }

  /** {@code speech-infra deploy} of the planned config behind the plan. */
  String deployBehind(Path plannedConfig, Path planFile) {
    return line("bin/speech-infra deploy", endpoint(plannedConfig).add(Flags.PLAN, planFile));
  }

  /** A fresh deployment behind the plan, then the replay of the calibration trace. */
  String replay(
      Path plannedConfig,
      Path planFile,
      ReplayPrediction.Inputs inputs,
      Replay.TraceSource.Calibration trace) {
    Args args =
        endpoint(plannedConfig).add(Flags.PLAN, planFile).add(Flags.QMAX, inputs.qmaxFile());
    for (StartupDelaySamples.Input t : inputs.ttotals()) {
      args.add(Flags.TTOTAL, t.file());
    }
    args.add(Flags.CALIBRATION, trace.writeTo())
        .add(Flags.QUIET, trace.quiet())
        .add(Flags.SURGE, trace.surge())
        .add(Flags.FALL, trace.fall())
        .add(Flags.PRE_ROLL, "live")
        .add(Flags.WARMUP, o.ladder().warmup());
    return deployBehind(plannedConfig, planFile) + " && " + line("bin/tts-bench replay", args);
  }

  /** The endpoint deployed from {@code configFile}, with the run's state folder. */
  private Args endpoint(Path configFile) {
    return new Args()
        .add(Flags.MODEL, o.model())
        .add(Flags.CONFIG, configFile)
        .optional(Flags.STATE_DIR, o.local().stateDir());
  }

  private static String line(String command, Args args) {
    return command + " " + String.join(" ", args.words());
  }
}
