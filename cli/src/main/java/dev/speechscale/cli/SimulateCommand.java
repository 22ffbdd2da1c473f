package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.FirstByteEvidences;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.PlanArtifacts;
import dev.speechscale.artifacts.PlanSaturation;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.SimulateArtifact;
import dev.speechscale.artifacts.SimulateArtifacts;
import dev.speechscale.artifacts.StartupDelaySamples;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.report.SimulateReport;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.Policies;
import dev.speechscale.simulator.Policy;
import dev.speechscale.simulator.PolicyResult;
import dev.speechscale.simulator.Progress;
import dev.speechscale.simulator.RefusalCost;
import dev.speechscale.simulator.SimulatorException;
import dev.speechscale.simulator.Traffic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tts-bench simulate}: what each policy would do with a traffic trace on a fleet modelled
 * from the measured artifacts. Wiring only: reads the artifacts, builds the model, runs the
 * policies (in parallel, one thread each up to the processors; the results do not depend on it),
 * prints the comparison, writes the artifact and the HTML report.
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

  @Option(names = "--qmax", required = true, paramLabel = "FILE", description = "qmax artifact")
  Path qmax;

  @Option(
      names = "--ttotal",
      required = true,
      paramLabel = "FILE",
      description =
          "ttotal artifact (start-up delay: desired_set -> in_service); give it once per ttotal"
              + " run (a --runs N artifact counts its N runs) and each new instance draws one of"
              + " the delays (seeded)")
  List<Path> ttotal;

  @Option(names = "--plan", required = true, paramLabel = "FILE", description = "plan artifact")
  Path plan;

  @ArgGroup(exclusive = true, multiplicity = "1")
  TrafficChoice traffic;

  static final class TrafficChoice {
    @Option(
        names = "--trace",
        paramLabel = "FILE",
        description = "CSV: header time_s,rps (rate intervals) or arrival_s (arrival times)")
    Path trace;

    @Option(
        names = "--pattern",
        paramLabel = "SHAPE",
        description = "built-in traffic: ${COMPLETION-CANDIDATES}")
    Pattern pattern;
  }

  enum Pattern {
    diurnal,
    step,
    ramp,
    spike
  }

  @Option(
      names = "--peak-rps",
      paramLabel = "N",
      description = "pattern peak (default: the plan's peak)")
  Double peakRps;

  @Option(
      names = "--trough-rps",
      paramLabel = "N",
      description = "pattern trough (default: the plan's trough, else 0)")
  Double troughRps;

  @Option(
      names = "--duration",
      defaultValue = "24h",
      paramLabel = "DURATION",
      description = "pattern length, whole seconds (default ${DEFAULT-VALUE})")
  Duration duration;

  @Option(
      names = "--policies",
      defaultValue = "plan,naive,invocations,cpu",
      paramLabel = "LIST",
      description =
          "comma-separated: plan, naive, invocations, cpu, fixed:N (default ${DEFAULT-VALUE})")
  String policies;

  @Option(
      names = "--seed",
      defaultValue = "1",
      paramLabel = "N",
      description = "arrivals and service times (default ${DEFAULT-VALUE})")
  long seed;

  @Option(
      names = "--metric-delay",
      defaultValue = "0s",
      paramLabel = "DURATION",
      description =
          "how late a metric period becomes readable: 0s locally, ~60s+ on CloudWatch"
              + " (default ${DEFAULT-VALUE})")
  Duration metricDelay;

  @Option(
      names = "--pre-roll",
      defaultValue = "window",
      paramLabel = "window|DURATION",
      description =
          "warm history simulated before t = 0 at the trace's first rate, counted nowhere:"
              + " 'window' = each policy's longest alarm window (180s for the plan's rules),"
              + " 0s = none, or whole seconds (default ${DEFAULT-VALUE})")
  String preRoll;

  @Option(
      names = "--max-request-age",
      defaultValue = DEFAULT_MAX_REQUEST_AGE,
      paramLabel = "DURATION",
      description = "the server's MAX_REQUEST_AGE_S deadline (default ${DEFAULT-VALUE})")
  Duration maxRequestAge;

  @Option(
      names = "--price-per-hour",
      paramLabel = "N",
      description = "price of one instance-hour; adds a cost column")
  Double pricePerHour;

  @Option(
      names = "--output",
      paramLabel = "FILE",
      description = "where to write the artifact (default simulate-<model>.json)")
  Path output;

  @Option(
      names = "--report",
      paramLabel = "FILE",
      description = "where to write the HTML report (default simulate-<model>.html)")
  Path report;

  @Option(names = "--json", description = "print the artifact as JSON instead of the table")
  boolean json;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  RefusalCostOptions refusalCost;

  private final Clock clock;

  SimulateCommand() {
    this(Clock.systemUTC());
  }

  SimulateCommand(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Integer call() {
    validateUsage();
    QmaxArtifact q = ArtifactCodec.readQmax(qmax);
    List<StartupDelaySamples.Input> ttotals = new ArrayList<>();
    for (Path file : ttotal) {
      ttotals.add(new StartupDelaySamples.Input(ArtifactCodec.readTtotal(file), file.toString()));
    }
    PlanArtifact p = ArtifactCodec.readPlan(plan);
    for (StartupDelaySamples.Input t : ttotals) {
      checkSameModel(q, t.artifact(), Path.of(t.file()), p);
    }
    StartupDelaySamples delay = StartupDelaySamples.of(ttotals);
    InstanceModel model =
        InstanceModel.fromMeasurement(
                q.measurement(qmax.toString()),
                FirstByteEvidences.of(q),
                PlanSaturation.of(p),
                p.queueMaxDepth(),
                maxRequestAge,
                delay.delays())
            .withRefusalCost(refusalCost == null ? RefusalCost.NONE : refusalCost.resolve(spec));
    List<Policy> chosen = Policies.parse(policies, numbers(p, model));
    Traffic offered = traffic(p);
    FleetSimulator.Options options =
        new FleetSimulator.Options(q.sloMs(), metricDelay, seed, preRoll());
    List<PolicyResult> results = runAll(model, offered, chosen, options);
    SimulateArtifact artifact =
        SimulateArtifacts.build(
            new SimulateArtifacts.Sources(
                q.model(),
                p.endpoint(),
                q.sloMs(),
                seed,
                metricDelay.toNanos() / 1e9,
                pricePerHour,
                offered,
                traffic.trace != null ? "trace" : "pattern",
                model,
                delay.source(),
                sources(q, ttotals, p),
                results,
                Provenance.capture(commandLine(), parameters()),
                clock.instant()));
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

  private FleetSimulator.PreRoll preRoll() {
    if (preRoll.strip().equalsIgnoreCase("window")) {
      return new FleetSimulator.PreRoll.Window();
    }
    Duration d;
    try {
      d = Durations.parse(preRoll);
    } catch (RuntimeException e) {
      throw Cli.usage(
          spec,
          "--pre-roll ("
              + preRoll
              + ") must be 'window' or a duration in whole seconds, e.g. 180s or 0s");
    }
    try {
      return d.isZero() ? new FleetSimulator.PreRoll.None() : new FleetSimulator.PreRoll.Fixed(d);
    } catch (SimulatorException e) {
      throw Cli.usage(spec, e.getMessage());
    }
  }

  private void validateUsage() {
    if (traffic.trace != null && (peakRps != null || troughRps != null)) {
      throw Cli.usage(
          spec, "--peak-rps and --trough-rps shape a --pattern; a --trace has its own rates");
    }
    if (metricDelay.isNegative()) {
      throw Cli.usage(spec, "--metric-delay (" + metricDelay + ") must be at least 0s");
    }
    if (maxRequestAge.isNegative() || maxRequestAge.isZero()) {
      throw Cli.usage(spec, "--max-request-age (" + maxRequestAge + ") must be positive, e.g. 56s");
    }
    if (pricePerHour != null && !(pricePerHour >= 0 && !pricePerHour.isInfinite())) {
      throw Cli.usage(spec, "--price-per-hour (" + pricePerHour + ") must be a number >= 0");
    }
  }

  private List<PlanArtifact.SourceFile> sources(
      QmaxArtifact q, List<StartupDelaySamples.Input> ttotals, PlanArtifact p) {
    List<PlanArtifact.SourceFile> out = new ArrayList<>();
    out.add(PlanArtifacts.source(qmax.toString(), q));
    for (StartupDelaySamples.Input t : ttotals) {
      out.add(PlanArtifacts.source(t.file(), t.artifact()));
    }
    out.add(PlanArtifacts.source(plan.toString(), p));
    return out;
  }

  private void checkSameModel(QmaxArtifact q, TtotalArtifact t, Path ttotal, PlanArtifact p) {
    if (!q.model().equals(t.model()) || !q.model().equals(p.model())) {
      throw new CliException(
          String.format(
              Locale.ROOT,
              "the artifacts are for different models (qmax %s: '%s', ttotal %s: '%s', plan %s:"
                  + " '%s'); simulate artifacts of one model",
              qmax,
              q.model(),
              ttotal,
              t.model(),
              plan,
              p.model()));
    }
  }

  private Traffic traffic(PlanArtifact p) {
    if (traffic.trace != null) {
      Path file = traffic.trace;
      if (!Files.isReadable(file)) {
        throw new CliException("--trace " + file + " cannot be read; check the path");
      }
      // the trace is named by its file name: the artifact and report carry no machine paths
      return Traffic.csv(String.valueOf(file.getFileName()), () -> lines(file));
    }
    PlanArtifact.Chosen chosen = p.inputs() == null ? null : p.inputs().chosen();
    Double peak = peakRps != null ? peakRps : chosen == null ? null : chosen.peakRps();
    if (peak == null) {
      throw Cli.usage(
          spec,
          "give --peak-rps N: the plan " + plan + " states no peak request rate to default to");
    }
    double trough =
        troughRps != null
            ? troughRps
            : chosen == null || chosen.troughRps() == null ? 0 : chosen.troughRps();
    return switch (traffic.pattern) {
      case diurnal -> Traffic.diurnal(peak, trough, duration);
      case step -> Traffic.step(peak, trough, duration);
      case ramp -> Traffic.ramp(peak, trough, duration);
      case spike -> Traffic.spike(peak, trough, duration);
    };
  }

  private static Stream<String> lines(Path file) {
    try {
      return Files.lines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private static Policies.PlanNumbers numbers(PlanArtifact p, InstanceModel model) {
    if (p.scalingTargetValue() == null || p.scaleInThreshold() == null) {
      throw new CliException(
          "the plan has no scaling_target_value or scale_in_threshold (no measured units ratio),"
              + " so it deploys no scaling; re-run tts-bench qmax with the server metric joined");
    }
    PlanArtifact.Chosen chosen = p.inputs() == null ? null : p.inputs().chosen();
    double peak = chosen == null || chosen.peakRps() == null ? 0 : chosen.peakRps();
    double sMean =
        p.inputs() == null ? model.responseTimes().meanSeconds() : p.inputs().measured().sMeanS();
    return new Policies.PlanNumbers(
        p.minInstances(),
        p.maxInstances(),
        p.scalingTargetValue(),
        p.scaleInThreshold(),
        Duration.ofSeconds(p.scaleOutCooldownS()),
        Duration.ofSeconds(p.scaleInCooldownS()),
        p.cScaleMax(),
        peak,
        sMean,
        model.saturatedPerSecond());
  }

  private List<PolicyResult> runAll(
      InstanceModel model, Traffic offered, List<Policy> chosen, FleetSimulator.Options options) {
    int threads = Math.max(1, Math.min(chosen.size(), Runtime.getRuntime().availableProcessors()));
    var err = spec.commandLine().getErr();
    Progress progress =
        (name, simulated, total) -> {
          if (total >= 3600) {
            synchronized (err) {
              err.printf(
                  Locale.ROOT,
                  "simulate: %-12s %6.1f / %.1f h%n",
                  name,
                  simulated / 3600.0,
                  total / 3600.0);
              err.flush();
            }
          }
        };
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<PolicyResult>> futures = new ArrayList<>();
      for (Policy p : chosen) {
        futures.add(pool.submit(() -> FleetSimulator.run(model, offered, p, options, progress)));
      }
      List<PolicyResult> out = new ArrayList<>();
      for (Future<PolicyResult> f : futures) {
        out.add(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException("interrupted while simulating");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new CompletionException(e.getCause());
    } finally {
      pool.shutdownNow();
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
