package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.StartupDelaySamples;
import dev.speechscale.chain.Flags;
import dev.speechscale.chain.Replay;
import dev.speechscale.chain.ReplayPrediction;
import dev.speechscale.simulator.RefusalCost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code replay}'s inputs: the trace (a file, or the calibration trace's shape) and the artifacts.
 * Option help: {@code flags.properties}.
 */
final class ReplayInputOptions {
  // picocli fills a multiplicity-1 group before call(), or refuses the command line (exit 2)
  @SuppressWarnings("NullAway.Init")
  @ArgGroup(multiplicity = "1")
  TraceChoice trace;

  static final class TraceChoice {
    @Option(names = Flags.TRACE, paramLabel = "FILE")
    @Nullable Path file;

    @Option(names = Flags.CALIBRATION, paramLabel = "FILE")
    @Nullable Path calibration;
  }

  @Option(names = Flags.SURGE_AT, paramLabel = "DURATION")
  @Nullable Duration surgeAt;

  @Mixin PlanFileOption plan;

  @Mixin QmaxFileOption qmax;

  @Mixin TtotalFilesOption ttotal;

  @Option(names = Flags.QUIET, defaultValue = "60s", paramLabel = "DURATION")
  Duration quiet;

  @Option(names = Flags.SURGE, defaultValue = "150s", paramLabel = "DURATION")
  Duration surge;

  @Option(names = Flags.FALL, defaultValue = "150s", paramLabel = "DURATION")
  Duration fall;

  /**
   * The trace the options name; their usage errors, and a bad trace file, before the endpoint is
   * touched.
   */
  Replay.TraceSource traceSource(CommandSpec spec) {
    if (trace.file != null) {
      if (surgeAt == null) {
        throw Cli.usage(
            spec,
            Flags.SURGE_AT
                + " is required with --trace: say where the trace's surge starts (e.g."
                + " "
                + Flags.SURGE_AT
                + " 60s), or use --calibration");
      }
      Replay.traffic(trace.file); // every bad line reported before the endpoint is touched
      return new Replay.TraceSource.File(trace.file, surgeAt.toMillis() / 1000.0);
    }
    if (surgeAt != null) {
      throw Cli.usage(
          spec, Flags.SURGE_AT + " goes with --trace; a --calibration trace knows its surge");
    }
    if (trace.calibration == null) { // the group takes one of the two: picocli refuses neither
      throw Cli.usage(spec, "give --trace FILE or --calibration FILE");
    }
    return new Replay.TraceSource.Calibration(trace.calibration, quiet, surge, fall);
  }

  /** The artifacts, read. */
  ReplayPrediction.Inputs read(RefusalCost cost) {
    QmaxArtifact q = ArtifactCodec.readQmax(qmax.file);
    List<StartupDelaySamples.Input> ttotals =
        ttotal.files.stream()
            .map(file ->
                new StartupDelaySamples.Input(ArtifactCodec.readTtotal(file), file.toString()))
            .toList();
    return new ReplayPrediction.Inputs(
        q,
        qmax.file.toString(),
        ttotals,
        ArtifactCodec.readPlan(plan.file),
        plan.file.toString(),
        cost);
  }

  /** The artifacts' files, as the artifact's parameters record them. */
  void record(Map<String, Object> params) {
    params.put("plan", plan.file.toString());
    params.put("qmax", qmax.file.toString());
    params.put("ttotal", ttotal.recorded());
  }
}
