package dev.speechscale.chain;

import java.nio.file.Path;

/**
 * The command lines that rerun {@code quickstart}'s deployments, drift and plan on their own, with
 * the files this run wrote, as the summary and the report print them (qmax, ttotal, validate and
 * replay rerun their request's {@code commandLine()}).
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
