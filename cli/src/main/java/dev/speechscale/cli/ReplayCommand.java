package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.chain.Flags;
import dev.speechscale.chain.Replay;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.report.ReplayTable;
import dev.speechscale.simulator.RefusalCost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code tts-bench replay}: the simulator's prediction against the live fleet, one trace. Option
 * help: {@code flags.properties}.
 */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Replay a trace against the deployed endpoint (open loop, the very arrivals the simulator"
          + " draws for the seed) while its policies act, simulate the same trace with the qmax"
          + " and ttotal artifacts and the endpoint's deployed rules, and print predicted against"
          + " measured: shed fraction, surge to the next instance in service, instances over"
          + " time, p95 TTFAB per minute. Changes nothing on the endpoint.",
      Flags.CALIBRATION
          + " FILE writes the calibration trace (quiet, a step surge past one instance,"
          + " quiet again) there and replays it. Writes replay-<model>.json.",
      Flags.SHARD + " K/N splits the arrivals across N load processes (docs/tts-bench.md, replay).",
      "Exit 0 when every judged figure is within its tolerance, 1 on a miss or a failure."
    })
final class ReplayCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ChainOptions common;
  @Mixin ReplayInputOptions inputs;
  @Mixin ReplayLiveOptions live;

  @Mixin OutputOption output;

  @Mixin JsonOption json;

  @Mixin ReplayPredictionOptions prediction;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  @Nullable RefusalCostOptions refusalCost;

  @Override
  public Integer call() {
    common.checkTransport(live.transport.given);
    Replay.Request request = request();
    if (!request.live().sharding().lead()) {
      Replay.ShardSent sent =
          common.onPlatform((platform, progress) ->
              Replay.runShard(platform, request, NanoClock.SYSTEM, progress));
      spec.commandLine()
          .getOut()
          .printf(
              "shard %s: %d arrivals (%d dropped by the client); wrote %s and %s: shard 0 merges"
                  + " them once both are beside its own log%n",
              sent.shard(), sent.arrivals(), sent.dropped(), sent.eventLog(), sent.histogramLog());
      return 0;
    }
    ReplayArtifact artifact =
        common.onPlatform(
            (platform, progress) -> Replay.run(platform, request, NanoClock.SYSTEM, progress));
    Path target = output.orDefault("replay-" + common.model() + ".json");
    ArtifactCodec.write(target, artifact);
    if (!json.printed(spec.commandLine().getOut(), artifact)) {
      ReplayTable.print(artifact, spec.commandLine().getOut());
      spec.commandLine().getOut().println("wrote " + target);
    }
    return artifact.verdict().within() ? 0 : 1;
  }

  /**
   * The replay the options ask for: its usage errors, bad trace and unreadable artifacts before the
   * endpoint is touched.
   */
  Replay.Request request() {
    Replay.TraceSource source = inputs.traceSource(spec);
    Duration given = live.metricDelay.given;
    Duration delay = given != null ? given : common.typicalMetricPublicationDelay();
    RefusalCost cost = refusalCost == null ? RefusalCost.NONE : refusalCost.resolve(spec);
    return new Replay.Request(
        common.target(),
        inputs.read(cost),
        source,
        live.seed.value,
        live.live(common.transport(live.transport.given), prediction.warmup.value),
        prediction.prediction(spec, delay),
        Cli.commandLine(spec),
        parameters(delay));
  }

  /** The run's parameters, as the artifact records them. */
  Map<String, Object> parameters(Duration delay) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("model", common.model());
    inputs.record(params);
    live.record(params, delay);
    prediction.record(params);
    if (refusalCost != null) {
      refusalCost.record(params);
    }
    return params;
  }
}
