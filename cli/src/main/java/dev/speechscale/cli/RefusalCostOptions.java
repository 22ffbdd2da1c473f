package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.chain.Flags;
import dev.speechscale.simulator.RefusalCost;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code --validate FILE} or {@code --refusal-cost-ms MS}: what each 503 at {@code queue_max_depth}
 * takes of the simulated instance's serving capacity. Neither: nothing (the model as before;
 * SageMaker's router is the service's, so there a refusal costs the instance only its own 503).
 * Option help: {@code flags.properties}.
 */
final class RefusalCostOptions {
  @Option(names = Flags.VALIDATE, paramLabel = "FILE")
  @Nullable List<Path> validate;

  @Option(names = Flags.REFUSAL_COST_MS, paramLabel = "MS")
  @Nullable Double refusalCostMs;

  /** The cost the options name; usage errors and unreadable artifacts are refused. */
  RefusalCost resolve(CommandSpec spec) {
    if (refusalCostMs != null) {
      if (!(refusalCostMs >= 0) || refusalCostMs.isInfinite()) {
        throw Cli.usage(
            spec,
            Flags.REFUSAL_COST_MS
                + " ("
                + refusalCostMs
                + ") must be a number >= 0 (milliseconds of the instance per refusal)");
      }
      return new RefusalCost(
          refusalCostMs / 1000,
          String.format(Locale.ROOT, Flags.REFUSAL_COST_MS + " %s", refusalCostMs));
    }
    if (validate == null || validate.isEmpty()) {
      return RefusalCost.NONE;
    }
    if (validate.size() == 1) {
      return fromArtifact(ArtifactCodec.readValidate(validate.getFirst()), validate.getFirst());
    }
    List<ValidateArtifact> read = new ArrayList<>();
    for (Path file : validate) {
      read.add(ArtifactCodec.readValidate(file));
    }
    return pooled(read, validate);
  }

  /**
   * Several runs' open-loop phases (a surge's regime) pooled by inverse variance: a run whose phase
   * did not resolve counts for little instead of being dropped or taken alone. The storm phases are
   * left out: they measure another regime (10–40× cheaper per refusal on the local fleet).
   */
  static RefusalCost pooled(List<ValidateArtifact> artifacts, List<Path> files) {
    List<RefusalCost.Measured> open = new ArrayList<>();
    StringBuilder each = new StringBuilder();
    for (int i = 0; i < artifacts.size(); i++) {
      ValidateArtifact.Refusing r = openLoop(artifacts.get(i), files.get(i));
      open.add(new RefusalCost.Measured(r.secondsPerRefusal(), r.uncertaintySeconds()));
      each.append(
          String.format(
              Locale.ROOT,
              "%s%s %.3g +- %.2g",
              i == 0 ? "" : ", ",
              files.get(i).getFileName(),
              r.secondsPerRefusal() * 1000,
              r.uncertaintySeconds() * 1000));
    }
    RefusalCost.Measured p = RefusalCost.pool(open);
    String source =
        String.format(
            Locale.ROOT,
            "%d validate artifacts' open-loop phases pooled by inverse variance, %.3g +- %.2g ms"
                + " (%s ms)",
            artifacts.size(),
            p.secondsPerRefusal() * 1000,
            p.uncertaintySeconds() * 1000,
            each);
    return p.secondsPerRefusal() < 0
        ? new RefusalCost(0, source + ", below the machine's noise, taken as 0")
        : new RefusalCost(p.secondsPerRefusal(), source);
  }

  private static ValidateArtifact.Refusing openLoop(ValidateArtifact v, Path file) {
    ValidateArtifact.RefusalCost c = measured(v, file, "leave it out");
    for (ValidateArtifact.Refusing r : c.refusing()) {
      if (r.phase().loadModel().equals("open-loop") && r.uncertaintySeconds() > 0) {
        return r;
      }
    }
    throw new CliException(
        "the validate artifact "
            + file
            + " has no open-loop refusing phase with an uncertainty to weigh it by (the instance"
            + " refused nothing under open-loop arrivals, or the baselines agreed exactly); leave"
            + " it out, or give it alone as --validate");
  }

  /** The artifact's refusal_cost, or a refusal naming the file and {@code orElse} as the fix. */
  private static ValidateArtifact.RefusalCost measured(
      ValidateArtifact v, Path file, String orElse) {
    ValidateArtifact.RefusalCost c = v.refusalCost();
    if (c == null) {
      throw new CliException(
          "the validate artifact "
              + file
              + " has no refusal_cost: it was written without --live, or before validate"
              + " measured it; run tts-bench validate --live again, or "
              + orElse);
    }
    return c;
  }

  /** The artifact's measured figure, as the simulator takes it. */
  static RefusalCost fromArtifact(ValidateArtifact v, Path file) {
    String name = String.valueOf(file.getFileName());
    ValidateArtifact.RefusalCost c = measured(v, file, "give --refusal-cost-ms");
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
    if (validate != null && validate.size() == 1) {
      parameters.put("validate", validate.getFirst().toString());
    } else if (validate != null && !validate.isEmpty()) {
      parameters.put("validate", validate.stream().map(Path::toString).toList());
    }
    if (refusalCostMs != null) {
      parameters.put("refusal_cost_ms", refusalCostMs);
    }
  }
}
