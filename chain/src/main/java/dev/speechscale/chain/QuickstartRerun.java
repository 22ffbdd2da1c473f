package dev.speechscale.chain;

import dev.speechscale.loadgen.StabilityRule;
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
    return " "
        + Flags.MODEL
        + " "
        + o.model()
        + " "
        + Flags.CONFIG
        + " "
        + config
        + o.local().stateDirArgument();
  }

  String deploy() {
    return "bin/speech-infra deploy" + common();
  }

  String drift() {
    return "bin/tts-bench drift" + common();
  }

  String qmax() {
    return "bin/tts-bench qmax"
        + common()
        + " "
        + Flags.RUNGS
        + " "
        + String.join(",", o.ladder().rungs().stream().map(String::valueOf).toList())
        + " "
        + Flags.WARMUP
        + " "
        + o.ladder().warmup().toSeconds()
        + "s --hold "
        + o.ladder().hold().toSeconds()
        + "s --window "
        + o.ladder().window().toSeconds()
        + "s --slo "
        + o.slo().toMillis()
        + "ms"
        + stability();
  }

  /** The stability windows the quickstart's qmax ran with, as qmax's flags. */
  private String stability() {
    StabilityRule r = o.ladder().stability();
    if (!r.extendsHold()) {
      return " " + Flags.STABILITY_WINDOWS + " 1";
    }
    String pct =
        r.percent() == Math.rint(r.percent())
            ? String.valueOf((long) r.percent())
            : String.valueOf(r.percent());
    return " "
        + Flags.STABILITY_WINDOWS
        + " "
        + r.windows()
        + " "
        + Flags.STABILITY_PERCENT
        + " "
        + pct
        + " "
        + Flags.MAX_HOLD
        + " "
        + (r.maxHold().toMillis() % 1000 == 0
            ? r.maxHold().toSeconds() + "s"
            : r.maxHold().toMillis() + "ms");
  }

  String ttotal(Path qmaxFile) {
    return "bin/tts-bench ttotal"
        + common()
        + " "
        + Flags.QMAX
        + " "
        + qmaxFile
        + " "
        + Flags.RECOVERY_WINDOW
        + " "
        + o.recoveryWindow().toSeconds()
        + "s";
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

  String validate(Path plannedConfig, Path planFile) {
    return behind("bin/tts-bench validate", plannedConfig, planFile, " " + Flags.LIVE);
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
        + o.local().stateDirArgument();
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
        + o.local().stateDirArgument()
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
}
