package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.artifacts.StartupDelaySamples;
import dev.speechscale.chain.Flags;
import dev.speechscale.chain.HostSpeedLogs;
import dev.speechscale.chain.InstanceSpeed;
import dev.speechscale.chain.Replay;
import dev.speechscale.chain.ReplayPrediction;
import dev.speechscale.chain.Texts;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import dev.speechscale.report.ReplayTable;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.RefusalCost;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tts-bench replay}: the simulator's prediction against the live fleet, one trace. */
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
      "Exit 0 when every judged figure is within its tolerance, 1 on a miss or a failure."
    })
final class ReplayCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ChainOptions common;

  // picocli fills a multiplicity-1 group before call(), or refuses the command line (exit 2)
  @SuppressWarnings("NullAway.Init")
  @ArgGroup(multiplicity = "1")
  TraceChoice trace;

  static final class TraceChoice {
    @Option(
        names = Flags.TRACE,
        paramLabel = "FILE",
        description = "a trace: CSV time_s,rps (the last row ends it) or arrival_s")
    @Nullable Path file;

    @Option(
        names = Flags.CALIBRATION,
        paramLabel = "FILE",
        description = "write the calibration trace to FILE and replay it")
    @Nullable Path calibration;
  }

  @Option(
      names = Flags.SURGE_AT,
      paramLabel = "DURATION",
      description = "where the trace's surge starts (with --trace; --calibration knows)")
  @Nullable Duration surgeAt;

  @Option(names = Flags.PLAN, required = true, paramLabel = "FILE", description = "plan artifact")
  Path plan;

  @Option(names = Flags.QMAX, required = true, paramLabel = "FILE", description = "qmax artifact")
  Path qmax;

  @Option(
      names = Flags.TTOTAL,
      required = true,
      paramLabel = "FILE",
      description =
          "ttotal artifact; give it once per ttotal run (a --runs N artifact counts its N runs)"
              + " and each simulated instance draws one of the start-up delays (seeded)")
  List<Path> ttotal;

  @Option(
      names = Flags.QUIET,
      defaultValue = "60s",
      paramLabel = "DURATION",
      description = "calibration: quiet period before the surge (default ${DEFAULT-VALUE})")
  Duration quiet;

  @Option(
      names = Flags.SURGE,
      defaultValue = "150s",
      paramLabel = "DURATION",
      description = "calibration: surge length (default ${DEFAULT-VALUE})")
  Duration surge;

  @Option(
      names = Flags.FALL,
      defaultValue = "150s",
      paramLabel = "DURATION",
      description = "calibration: quiet period after it (default ${DEFAULT-VALUE})")
  Duration fall;

  @Option(
      names = Flags.SEED,
      defaultValue = "1",
      paramLabel = "N",
      description = "arrivals' seed (default ${DEFAULT-VALUE})")
  long seed;

  @Option(
      names = Flags.METRIC_DELAY,
      paramLabel = "DURATION",
      description = "metric publication delay simulated (default: 0s local, 60s aws)")
  @Nullable Duration metricDelay;

  @Option(
      names = Flags.SAMPLE_EVERY,
      defaultValue = "200ms",
      paramLabel = "DURATION",
      description = "how often instance counts are read (default ${DEFAULT-VALUE})")
  Duration sampleEvery;

  @Option(
      names = Flags.NO_ALIGN,
      description = "start at once instead of on the next alarm-period boundary")
  boolean noAlign;

  @Option(
      names = Flags.TRANSPORT,
      paramLabel = "http-stream|response-stream|bidi",
      description = "transport of the replay")
  @Nullable String transport;

  @Option(names = Flags.TEXTS, paramLabel = "FILE", description = "one request text per line")
  @Nullable Path texts;

  @Option(
      names = Flags.EVENTS,
      paramLabel = "FILE",
      description = "per-request JSON-lines log of the live side (as qmax --events)")
  @Nullable Path events;

  @Option(
      names = Flags.OUTPUT,
      paramLabel = "FILE",
      description = "artifact path (default replay-<model>.json)")
  @Nullable Path output;

  @Option(names = Flags.JSON, description = "print the artifact as JSON")
  boolean json;

  @Option(
      names = Flags.WARMUP,
      defaultValue = "20s",
      paramLabel = "DURATION",
      description =
          "load sent at N=4 (below the deployed target) before the trace and not measured, so the"
              + " trace does not start on a cold instance; 0s for none (default ${DEFAULT-VALUE})")
  Duration warmup;

  @Option(
      names = Flags.INITIAL_INSTANCES,
      defaultValue = "fresh",
      paramLabel = "fresh|warm",
      description =
          "what the endpoint's instances had served when the replay began: 'fresh' (default)"
              + " deployed for it, so the prediction's go on along the scale-out's cold start (the"
              + " ttotal artifact's new instance) from the requests the warm-up served (after 20 s"
              + " still 5-20 % slower than qmax's ladder instance on the local fleet); 'warm' long"
              + " in service before it, as warm as qmax's ladder instance")
  String initialInstances;

  @Option(
      names = Flags.PRE_ROLL,
      defaultValue = "live",
      paramLabel = "live|window|0s|DURATION",
      description =
          "the metric history the prediction starts from: 'live' (default) the endpoint's own,"
              + " read back from the platform, so the predicted alarms start with the periods the"
              + " live ones had; 'window' a simulated quiet spell at the trace's first rate as long"
              + " as the policy's longest alarm window; 0s none")
  String preRoll;

  @Option(
      names = Flags.SPEED,
      defaultValue = "ladder",
      paramLabel = "ladder|warmup",
      description =
          "the instance's speed for the prediction: 'ladder' (default) the ladder's X_sat as"
              + " measured; 'warmup' scales it by what the instance served in the warm-up's second"
              + " half against the ladder's X at the same N. Either way the warm-up's speed is"
              + " recorded: on a freshly deployed instance it reads the instance still warming"
              + " (x0.73 in a quiet quickstart whose surge then served faster than the ladder)")
  String speed;

  @Option(
      names = Flags.HOST_SPEED,
      defaultValue = "live",
      paramLabel = "live|off",
      description =
          "the hosts' speed: 'live' (default) probes the cores the instances run on during the run"
              + " (local platform) and slows each simulated instance by its host's time over the"
              + " speed qmax's ladder ran at (the qmax artifact's host_speed), second by second;"
              + " 'off' neither probes nor applies. Not applied, and said why, when either side"
              + " has no probe")
  String hostSpeed;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  @Nullable RefusalCostOptions refusalCost;

  private HostSpeedLogs.Source hostSpeed() {
    return switch (hostSpeed.strip().toLowerCase(java.util.Locale.ROOT)) {
      case "live" -> HostSpeedLogs.Source.LIVE;
      case "off" -> HostSpeedLogs.Source.OFF;
      default ->
          throw Cli.usage(spec, Flags.HOST_SPEED + " (" + hostSpeed + ") must be 'live' or 'off'");
    };
  }

  private Replay.InitialInstances initialInstances() {
    return switch (initialInstances.strip().toLowerCase(java.util.Locale.ROOT)) {
      case "fresh" -> Replay.InitialInstances.FRESH;
      case "warm" -> Replay.InitialInstances.WARM;
      default ->
          throw Cli.usage(
              spec,
              Flags.INITIAL_INSTANCES
                  + " ("
                  + initialInstances
                  + ") must be 'fresh' (deployed for the replay) or 'warm' (serving long before"
                  + " it)");
    };
  }

  private InstanceSpeed.Source speed() {
    return switch (speed.strip().toLowerCase(java.util.Locale.ROOT)) {
      case "warmup" -> InstanceSpeed.Source.WARMUP;
      case "ladder" -> InstanceSpeed.Source.LADDER;
      default ->
          throw Cli.usage(spec, Flags.SPEED + " (" + speed + ") must be 'warmup' or 'ladder'");
    };
  }

  private Replay.History preRoll() {
    if (preRoll.equals("live")) {
      return new Replay.History.Live();
    }
    if (preRoll.equals("window")) {
      return new Replay.History.Simulated(new FleetSimulator.PreRoll.Window());
    }
    Duration d;
    try {
      d = Durations.parse(preRoll);
    } catch (RuntimeException e) {
      throw Cli.usage(
          spec,
          Flags.PRE_ROLL
              + " ("
              + preRoll
              + ") must be 'live', 'window', 0s or a duration such as 180s");
    }
    return new Replay.History.Simulated(
        d.isZero() ? new FleetSimulator.PreRoll.None() : new FleetSimulator.PreRoll.Fixed(d));
  }

  @Override
  public Integer call() {
    common.checkTransport(transport);
    Replay.TraceSource source = traceSource();
    QmaxArtifact q = ArtifactCodec.readQmax(qmax);
    List<StartupDelaySamples.Input> ttotals = new ArrayList<>();
    for (Path file : ttotal) {
      ttotals.add(new StartupDelaySamples.Input(ArtifactCodec.readTtotal(file), file.toString()));
    }
    PlanArtifact p = ArtifactCodec.readPlan(plan);
    Duration delay = metricDelay != null ? metricDelay : common.typicalMetricPublicationDelay();
    Map<String, Object> params = parameters(delay);
    RefusalCost cost = refusalCost == null ? RefusalCost.NONE : refusalCost.resolve(spec);
    ReplayArtifact artifact;
    try (Platform platform = common.open()) {
      artifact =
          Replay.run(
              platform,
              new Replay.Request(
                  common.model(),
                  new ReplayPrediction.Inputs(
                      q, qmax.toString(), ttotals, p, plan.toString(), cost),
                  source,
                  seed,
                  new Replay.Live(
                      common.transport(transport),
                      Texts.load(texts),
                      sampleEvery,
                      !noAlign,
                      events,
                      warmup),
                  new Replay.Prediction(delay, preRoll(), speed(), hostSpeed(), initialInstances()),
                  Cli.commandLine(spec),
                  params),
              Clock.systemUTC(),
              NanoClock.SYSTEM,
              line -> spec.commandLine().getErr().println(line));
    }
    Path target = output != null ? output : Path.of("replay-" + common.model() + ".json");
    ArtifactCodec.write(target, artifact);
    if (json) {
      spec.commandLine().getOut().print(ArtifactCodec.toJson(artifact));
    } else {
      ReplayTable.print(artifact, spec.commandLine().getOut());
      spec.commandLine().getOut().println("wrote " + target);
    }
    return artifact.verdict().within() ? 0 : 1;
  }

  /**
   * The trace the flags name; their usage errors, and a bad trace file, before the endpoint is
   * touched.
   */
  private Replay.TraceSource traceSource() {
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

  /** The run's parameters, as the artifact records them. */
  Map<String, Object> parameters(Duration delay) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("model", common.model());
    params.put("plan", plan.toString());
    params.put("qmax", qmax.toString());
    params.put(
        "ttotal",
        ttotal.size() == 1
            ? ttotal.getFirst().toString()
            : ttotal.stream().map(Path::toString).toList());
    params.put("seed", seed);
    params.put("metric_delay_s", delay.toMillis() / 1000.0);
    params.put("sample_every_s", sampleEvery.toMillis() / 1000.0);
    params.put("align", !noAlign);
    params.put("pre_roll", preRoll);
    params.put("warmup_s", warmup.toMillis() / 1000.0);
    params.put("speed", speed);
    params.put("host_speed", hostSpeed);
    // as parsed ("WARM" and " warm" are warm), so the report reads one spelling
    params.put("initial_instances", initialInstances().name().toLowerCase(java.util.Locale.ROOT));
    if (refusalCost != null) {
      refusalCost.record(params);
    }
    return params;
  }
}
