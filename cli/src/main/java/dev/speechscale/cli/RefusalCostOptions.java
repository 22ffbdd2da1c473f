package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.simulator.RefusalCost;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code --validate FILE} or {@code --refusal-cost-ms MS}: what each 503 at {@code queue_max_depth}
 * takes of the simulated instance's serving capacity. Neither: nothing (the model as before;
 * SageMaker's router is the service's, so there a refusal costs the instance only its own 503).
 */
final class RefusalCostOptions {
  @Option(
      names = "--validate",
      paramLabel = "FILE",
      description =
          "validate artifact (validate --live) whose measured refusal_cost the simulated instance"
              + " spends per 503 at queue_max_depth (default: refusals cost nothing)")
  Path validate;

  @Option(
      names = "--refusal-cost-ms",
      paramLabel = "MS",
      description =
          "milliseconds of the instance's serving capacity per 503 at queue_max_depth, instead of"
              + " --validate (default 0)")
  Double refusalCostMs;

  /** The cost the options name; usage errors and unreadable artifacts are refused. */
  RefusalCost resolve(CommandSpec spec) {
    if (refusalCostMs != null) {
      if (!(refusalCostMs >= 0) || refusalCostMs.isInfinite()) {
        throw Cli.usage(
            spec,
            "--refusal-cost-ms ("
                + refusalCostMs
                + ") must be a number >= 0 (milliseconds of the instance per refusal)");
      }
      return new RefusalCost(
          refusalCostMs / 1000, String.format(Locale.ROOT, "--refusal-cost-ms %s", refusalCostMs));
    }
    if (validate == null) {
      return RefusalCost.NONE;
    }
    return fromArtifact(ArtifactCodec.readValidate(validate), validate);
  }

  /** The artifact's measured figure, as the simulator takes it. */
  static RefusalCost fromArtifact(ValidateArtifact v, Path file) {
    String name = String.valueOf(file.getFileName());
    ValidateArtifact.RefusalCost c = v.refusalCost();
    if (c == null) {
      throw new CliException(
          "the validate artifact "
              + file
              + " has no refusal_cost: it was written without --live, or before validate"
              + " measured it; run tts-bench validate --live again, or give --refusal-cost-ms");
    }
    Double tau = c.secondsPerRefusal();
    if (tau == null) {
      throw new CliException(
          "the validate artifact "
              + file
              + " measured no refusal cost ("
              + c.from()
              + "); run tts-bench validate --live again, or give --refusal-cost-ms");
    }
    if (tau < 0) {
      return new RefusalCost(
          0,
          String.format(
              Locale.ROOT,
              "validate %s: %.4g ms per refusal measured, below the machine's noise, taken as 0",
              name,
              tau * 1000));
    }
    return new RefusalCost(
        tau,
        String.format(
            Locale.ROOT,
            "validate %s, %s; baselines %.2f and %.2f req/s",
            name,
            c.from().split(":", 2)[0],
            c.baselineBefore().servedRps(),
            c.baselineAfter().servedRps()));
  }

  /** Adds the options that were given to a command's recorded parameters (none: nothing added). */
  void record(Map<String, Object> parameters) {
    if (validate != null) {
      parameters.put("validate", validate.toString());
    }
    if (refusalCostMs != null) {
      parameters.put("refusal_cost_ms", refusalCostMs);
    }
  }
}
