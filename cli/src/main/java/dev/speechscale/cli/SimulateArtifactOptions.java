package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The measured artifacts {@code simulate} builds its fleet from. Option help: {@code
 * flags.properties}.
 */
final class SimulateArtifactOptions {
  @Option(names = Flags.QMAX, required = true, paramLabel = "FILE")
  Path qmax;

  @Option(names = Flags.TTOTAL, required = true, paramLabel = "FILE")
  List<Path> ttotal;

  @Option(names = Flags.PLAN, required = true, paramLabel = "FILE")
  Path plan;

  /** The artifacts, read and checked against each other. */
  SimulateInputs read() {
    return SimulateInputs.read(qmax, ttotal, plan);
  }

  /** The files as the artifact's parameters record them. */
  void record(Map<String, Object> m) {
    m.put("qmax", qmax.toString());
    m.put(
        "ttotal",
        ttotal.size() == 1
            ? ttotal.getFirst().toString()
            : ttotal.stream().map(Path::toString).toList());
    m.put("plan", plan.toString());
  }
}
