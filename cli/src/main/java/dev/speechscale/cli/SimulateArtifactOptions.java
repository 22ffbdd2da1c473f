package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The measured artifacts {@code simulate} builds its fleet from. Option help: {@code
 * flags.properties}.
 */
final class SimulateArtifactOptions {
  @Mixin QmaxFileOption qmax;

  @Option(names = Flags.TTOTAL, required = true, paramLabel = "FILE")
  List<Path> ttotal;

  @Mixin PlanFileOption plan;

  /** The artifacts, read and checked against each other. */
  SimulateInputs read() {
    return SimulateInputs.read(qmax.file, ttotal, plan.file);
  }

  /** The files as the artifact's parameters record them. */
  void record(Map<String, Object> m) {
    m.put("qmax", qmax.file.toString());
    m.put("ttotal", recorded(ttotal));
    m.put("plan", plan.file.toString());
  }

  /** {@code --ttotal} files as parameters record them: the one path, or the list of several. */
  static Object recorded(List<Path> ttotal) {
    return ttotal.size() == 1
        ? ttotal.getFirst().toString()
        : ttotal.stream().map(Path::toString).toList();
  }
}
