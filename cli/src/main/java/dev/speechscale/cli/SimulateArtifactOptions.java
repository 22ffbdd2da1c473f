package dev.speechscale.cli;

import java.util.Map;
import picocli.CommandLine.Mixin;

/**
 * The measured artifacts {@code simulate} builds its fleet from. Option help: {@code
 * flags.properties}.
 */
final class SimulateArtifactOptions {
  @Mixin QmaxFileOption qmax;

  @Mixin TtotalFilesOption ttotal;

  @Mixin PlanFileOption plan;

  /** The artifacts, read and checked against each other. */
  SimulateInputs read() {
    return SimulateInputs.read(qmax.file, ttotal.files, plan.file);
  }

  /** The files as the artifact's parameters record them. */
  void record(Map<String, Object> m) {
    m.put("qmax", qmax.file.toString());
    m.put("ttotal", ttotal.recorded());
    m.put("plan", plan.file.toString());
  }
}
