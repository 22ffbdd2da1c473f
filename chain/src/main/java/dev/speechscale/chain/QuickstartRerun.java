package dev.speechscale.chain;

import java.nio.file.Path;

/**
 * The command line that reruns each of {@code quickstart}'s steps on its own, with the files this
 * run wrote, as the summary and the report print them.
 *
 * @param o what the run ran
 * @param config the measurement config it wrote
 */
record QuickstartRerun(QuickstartRun.Options o, Path config) {

  /** The options every rerun line of a measurement step shares. */
  private String common() {
    return " " + Flags.MODEL + " " + o.model() + " " + Flags.CONFIG + " " + config + stateDir();
  }

  String deploy() {
    return "bin/speech-infra deploy" + common();
  }

  String drift() {
    return "bin/tts-bench drift" + common();
  }

  String plan(Path qmaxFile, Path ttotalFile, double peakRps, Path planFile) {
    return "bin/tts-bench plan --qmax "
        + qmaxFile
        + " "
        + Flags.TTOTAL
        + " "
        + ttotalFile
        + " "
        + Flags.PEAK_RPS
        + " "
        + (long) peakRps
        + " "
        + Flags.OUTPUT
        + " "
        + planFile;
  }

  /** {@code speech-infra deploy} of the planned config behind the plan. */
  String deployBehind(Path plannedConfig, Path planFile) {
    return behind("bin/speech-infra deploy", plannedConfig, planFile, "");
  }

  /** A command on the planned config and the plan, then {@code more}, then the state dir. */
  private String behind(String command, Path plannedConfig, Path planFile, String more) {
    return command
        + " "
        + Flags.MODEL
        + " "
        + o.model()
        + " "
        + Flags.CONFIG
        + " "
        + plannedConfig
        + " "
        + Flags.PLAN
        + " "
        + planFile
        + more
        + stateDir();
  }

  /** A fresh deployment behind the plan, then the replay of the calibration trace. */
  String replay(
      Path plannedConfig, Path planFile, String qmaxFile, String ttotalFiles, Path trace) {
    return deployBehind(plannedConfig, planFile)
        + " && bin/tts-bench replay"
        + " "
        + Flags.MODEL
        + " "
        + o.model()
        + " "
        + Flags.CONFIG
        + " "
        + plannedConfig
        + stateDir()
        + " "
        + Flags.PLAN
        + " "
        + planFile
        + " "
        + Flags.QMAX
        + " "
        + qmaxFile
        + " "
        + Flags.TTOTAL
        + " "
        + ttotalFiles
        + " "
        + Flags.CALIBRATION
        + " "
        + trace
        + " "
        + Flags.QUIET
        + " 20s --surge 40s --fall 30s --pre-roll live --warmup "
        + o.ladder().warmup().toSeconds()
        + "s";
  }

  /** {@code --state-dir DIR} when the run named one. */
  private String stateDir() {
    return o.local().stateDir() == null ? "" : " " + Flags.STATE_DIR + " " + o.local().stateDir();
  }
}
