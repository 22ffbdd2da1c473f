package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.FirstByteEvidences;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.PlanSaturation;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ScaleOutColdStart;
import dev.speechscale.artifacts.SimulateArtifact;
import dev.speechscale.artifacts.SimulateArtifacts;
import dev.speechscale.artifacts.StartupDelaySamples;
import dev.speechscale.chain.Flags;
import dev.speechscale.report.SimulateReport;
import dev.speechscale.report.SimulateTable;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.Policies;
import dev.speechscale.simulator.Policy;
import dev.speechscale.simulator.PolicyResult;
import dev.speechscale.simulator.RefusalCost;
import dev.speechscale.simulator.SimulatorException;
import dev.speechscale.simulator.Traffic;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tts-bench simulate}: what each policy would do with a traffic trace on a fleet modelled
 * from the measured artifacts. Wiring only: reads the artifacts, builds the model, runs the
 * policies (in parallel, one thread each up to the processors; the results do not depend on it),
 * prints the comparison, writes the artifact and the HTML report. It runs past 300 lines because
 * its two dozen options are declared here with their help texts (the pinned usage); the work is in
 * {@link SimulateInputs}, {@link SimulateTraffic}, the simulator and the report.
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Replay traffic against the plan and its rivals on a simulated fleet built from the qmax,"
          + " ttotal and plan artifacts. Reads files only.",
      "Exit 0 ok, 1 refused, 2 usage."
    })
final class SimulateCommand implements java.util.concurrent.Callable<Integer> {
  /** The server's default MAX_REQUEST_AGE_S. */
  static final String DEFAULT_MAX_REQUEST_AGE = "56s";

  @Spec CommandSpec spec;

  @Option(names = Flags.QMAX, required = true, paramLabel = "FILE", description = "qmax artifact")
  Path qmax;

  @Option(
      names = Flags.TTOTAL,
      required = true,
      paramLabel = "FILE",
      description =
          "ttotal artifact (start-up delay: desired_set -> in_service); give it once per ttotal"
              + " run (a --runs N artifact counts its N runs) and each new instance draws one of"
              + " the delays (seeded)")
  List<Path> ttotal;

  @Option(names = Flags.PLAN, required = true, paramLabel = "FILE", description = "plan artifact")
  Path plan;

  // picocli fills a multiplicity-1 group before call(), or refuses the command line (exit 2)
  @SuppressWarnings("NullAway.Init")
  @ArgGroup(exclusive = true, multiplicity = "1")
  TrafficChoice traffic;

  static final class TrafficChoice {
    @Option(
        names = Flags.TRACE,
        paramLabel = "FILE",
        description = "CSV: header time_s,rps (rate intervals) or arrival_s (arrival times)")
    @Nullable Path trace;

    @Option(
        names = Flags.PATTERN,
        paramLabel = "SHAPE",
        description = "built-in traffic: ${COMPLETION-CANDIDATES}")
    @Nullable Pattern pattern;
  }

  enum Pattern {
    diurnal,
    step,
    ramp,
    spike
  }

  @Option(
      names = Flags.PEAK_RPS,
      paramLabel = "N",
      description = "pattern peak (default: the plan's peak)")
  @Nullable Double peakRps;

  @Option(
      names = Flags.TROUGH_RPS,
      paramLabel = "N",
      description = "pattern trough (default: the plan's trough, else 0)")
  @Nullable Double troughRps;

  @Option(
      names = Flags.DURATION,
      defaultValue = "24h",
      paramLabel = "DURATION",
      description = "pattern length, whole seconds (default ${DEFAULT-VALUE})")
  Duration duration;

  @Option(
      names = Flags.POLICIES,
      defaultValue = "plan,naive,invocations,cpu",
      paramLabel = "LIST",
      description =
          "comma-separated: plan, naive, invocations, cpu, fixed:N; plan:average_60s or"
              + " plan:maximum_10s is the plan with that step scale-in alarm (default"
              + " ${DEFAULT-VALUE})")
  String policies;

  @Option(
      names = Flags.SEED,
      defaultValue = "1",
      paramLabel = "N",
      description = "arrivals and service times (default ${DEFAULT-VALUE})")
  long seed;

  @Option(
      names = Flags.METRIC_DELAY,
      defaultValue = "0s",
      paramLabel = "DURATION",
      description =
          "how late a metric period becomes readable: 0s locally, ~60s+ on CloudWatch"
              + " (default ${DEFAULT-VALUE})")
  Duration metricDelay;

  @Option(
      names = Flags.PRE_ROLL,
      defaultValue = "window",
      paramLabel = "window|DURATION",
      description =
          "warm history simulated before t = 0 at the trace's first rate, counted nowhere:"
              + " 'window' = each policy's longest alarm window (180s for the plan's rules),"
              + " 0s = none, or whole seconds (default ${DEFAULT-VALUE})")
  String preRoll;

  @Option(
      names = Flags.MAX_REQUEST_AGE,
      defaultValue = DEFAULT_MAX_REQUEST_AGE,
      paramLabel = "DURATION",
      description = "the server's MAX_REQUEST_AGE_S deadline (default ${DEFAULT-VALUE})")
  Duration maxRequestAge;

  @Option(
      names = Flags.PRICE_PER_HOUR,
      paramLabel = "N",
      description = "price of one instance-hour; adds a cost column")
  @Nullable Double pricePerHour;

  @Option(
      names = Flags.OUTPUT,
      paramLabel = "FILE",
      description = "where to write the artifact (default simulate-<model>.json)")
  @Nullable Path output;

  @Option(
      names = Flags.REPORT,
      paramLabel = "FILE",
      description = "where to write the HTML report (default simulate-<model>.html)")
  @Nullable Path report;

  @Option(names = Flags.JSON, description = "print the artifact as JSON instead of the table")
  boolean json;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  @Nullable RefusalCostOptions refusalCost;

  private final Clock clock;

  SimulateCommand() {
    this(ArtifactClock.fromEnvironment());
  }

  SimulateCommand(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Integer call() {
    validateUsage();
    SimulateInputs in = SimulateInputs.read(qmax, ttotal, plan);
    QmaxArtifact q = in.qmax();
    PlanArtifact p = in.plan();
    StartupDelaySamples delay = StartupDelaySamples.of(in.ttotals());
    InstanceModel model =
        InstanceModel.fromMeasurement(
                q.measurement(qmax.toString()),
                FirstByteEvidences.of(q),
                PlanSaturation.of(p),
                p.queueMaxDepth(),
                maxRequestAge,
                delay.delays())
            .withRefusalCost(refusalCost == null ? RefusalCost.NONE : refusalCost.resolve(spec))
            .withColdStart(ScaleOutColdStart.of(in.ttotals(), q, qmax.toString()))
            .withIdleStart(q.idleStartFactors(qmax.toString()));
    List<Policy> chosen = Policies.parse(policies, in.planNumbers(model));
    Traffic offered = SimulateTraffic.of(traffic, peakRps, troughRps, duration, p, plan, spec);
    FleetSimulator.Options options =
        new FleetSimulator.Options(
            q.sloMs(), metricDelay, seed, SimulateTraffic.preRoll(preRoll, spec));
    List<PolicyResult> results =
        ParallelPolicies.run(model, offered, chosen, options, spec.commandLine().getErr());
    SimulateArtifact artifact =
        SimulateArtifacts.build(sources(in, offered, model, delay, results));
    Path target = output != null ? output : Path.of(artifact.defaultFileName());
    ArtifactCodec.write(target, artifact);
    Path html = report != null ? report : Path.of("simulate-" + q.model() + ".html");
    ArtifactCodec.writeText(html, SimulateReport.html(artifact));
    if (json) {
      spec.commandLine().getOut().print(ArtifactCodec.toJson(artifact));
    } else {
      spec.commandLine().getOut().print(SimulateTable.render(artifact));
    }
    spec.commandLine().getErr().println("wrote " + target + " and " + html);
    return 0;
  }

  private SimulateArtifacts.Sources sources(
      SimulateInputs in,
      Traffic offered,
      InstanceModel model,
      StartupDelaySamples delay,
      List<PolicyResult> results) {
    return new SimulateArtifacts.Sources(
        in.qmax().model(),
        in.plan().endpoint(),
        in.qmax().sloMs(),
        seed,
        metricDelay.toNanos() / 1e9,
        pricePerHour,
        offered,
        traffic.trace != null ? "trace" : "pattern",
        model,
        delay.source(),
        in.sources(),
        results,
        Provenance.capture(commandLine(), parameters()),
        clock.instant());
  }

  private void validateUsage() {
    try {
      Policies.names(policies);
    } catch (SimulatorException e) {
      throw Cli.usage(spec, Cli.message(e));
    }
    if (traffic.trace != null && (peakRps != null || troughRps != null)) {
      throw Cli.usage(
          spec,
          Flags.PEAK_RPS + " and --trough-rps shape a --pattern; a --trace has its own rates");
    }
    if (metricDelay.isNegative()) {
      throw Cli.usage(spec, Flags.METRIC_DELAY + " (" + metricDelay + ") must be at least 0s");
    }
    if (maxRequestAge.isNegative() || maxRequestAge.isZero()) {
      throw Cli.usage(
          spec, Flags.MAX_REQUEST_AGE + " (" + maxRequestAge + ") must be positive, e.g. 56s");
    }
    if (pricePerHour != null && !(pricePerHour >= 0 && !pricePerHour.isInfinite())) {
      throw Cli.usage(spec, Flags.PRICE_PER_HOUR + " (" + pricePerHour + ") must be a number >= 0");
    }
  }

  /**
   * The command as typed. Under {@code tts-bench} the original arguments start with the
   * subcommand's name; run on its own (tests) they do not.
   */
  private String commandLine() {
    List<String> args = spec.commandLine().getParseResult().originalArgs();
    boolean named = !args.isEmpty() && args.getFirst().equals(spec.name());
    return "tts-bench " + (named ? "" : spec.name() + " ") + String.join(" ", args);
  }

  private Map<String, Object> parameters() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("qmax", qmax.toString());
    m.put(
        "ttotal",
        ttotal.size() == 1
            ? ttotal.getFirst().toString()
            : ttotal.stream().map(Path::toString).toList());
    m.put("plan", plan.toString());
    m.put("trace", traffic.trace == null ? null : traffic.trace.toString());
    m.put("pattern", traffic.pattern == null ? null : traffic.pattern.name());
    m.put("peak_rps", peakRps);
    m.put("trough_rps", troughRps);
    m.put("duration", duration.toString());
    m.put("policies", policies);
    m.put("seed", seed);
    m.put("metric_delay", metricDelay.toString());
    m.put("pre_roll", preRoll);
    m.put("max_request_age", maxRequestAge.toString());
    m.put("price_per_hour", pricePerHour);
    if (refusalCost != null) {
      refusalCost.record(m);
    }
    return m;
  }
}
