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
    return " --model " + o.model() + " --config " + config + o.local().stateDirArgument();
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
        + " --rungs "
        + String.join(",", o.ladder().rungs().stream().map(String::valueOf).toList())
        + " --warmup "
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
      return " --stability-windows 1";
    }
    String pct =
        r.percent() == Math.rint(r.percent())
            ? String.valueOf((long) r.percent())
            : String.valueOf(r.percent());
    return " --stability-windows "
        + r.windows()
        + " --stability-percent "
        + pct
        + " --max-hold "
        + (r.maxHold().toMillis() % 1000 == 0
            ? r.maxHold().toSeconds() + "s"
            : r.maxHold().toMillis() + "ms");
  }

  String ttotal(Path qmaxFile) {
    return "bin/tts-bench ttotal"
        + common()
        + " --qmax "
        + qmaxFile
        + " --recovery-window "
        + o.recoveryWindow().toSeconds()
        + "s";
  }

  String plan(Path qmaxFile, Path ttotalFile, double peakRps, Path planFile) {
    return "bin/tts-bench plan --qmax "
        + qmaxFile
        + " --ttotal "
        + ttotalFile
        + " --peak-rps "
        + (long) peakRps
        + " --output "
        + planFile;
  }

  /** {@code speech-infra deploy} of the planned config behind the plan. */
  String deployBehind(Path plannedConfig, Path planFile) {
    return behind("bin/speech-infra deploy", plannedConfig, planFile, "");
  }

  String validate(Path plannedConfig, Path planFile) {
    return behind("bin/tts-bench validate", plannedConfig, planFile, " --live");
  }

  /** A command on the planned config and the plan, then {@code more}, then the state dir. */
  private String behind(String command, Path plannedConfig, Path planFile, String more) {
    return command
        + " --model "
        + o.model()
        + " --config "
        + plannedConfig
        + " --plan "
        + planFile
        + more
        + o.local().stateDirArgument();
  }

  /** A fresh deployment behind the plan, then the replay of the calibration trace. */
  String replay(
      Path plannedConfig, Path planFile, String qmaxFile, String ttotalFiles, Path trace) {
    return deployBehind(plannedConfig, planFile)
        + " && bin/tts-bench replay"
        + " --model "
        + o.model()
        + " --config "
        + plannedConfig
        + o.local().stateDirArgument()
        + " --plan "
        + planFile
        + " --qmax "
        + qmaxFile
        + " --ttotal "
        + ttotalFiles
        + " --calibration "
        + trace
        + " --quiet 20s --surge 40s --fall 30s --pre-roll live --warmup "
        + o.ladder().warmup().toSeconds()
        + "s";
  }
}
