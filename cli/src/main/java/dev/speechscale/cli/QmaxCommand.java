package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.chain.ChainClock;
import dev.speechscale.chain.Flags;
import dev.speechscale.chain.QmaxRun;
import dev.speechscale.chain.Texts;
import dev.speechscale.loadgen.BisectionAllowance;
import dev.speechscale.loadgen.DriftRecheck;
import dev.speechscale.loadgen.DryRun;
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.loadgen.ProgressPrinter;
import dev.speechscale.loadgen.StabilityRule;
import dev.speechscale.platform.LadderDefaults;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.Transport;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tts-bench qmax}: the concurrency ceiling of one instance inside the SLO. */
@Command(
    name = "qmax",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Freeze scaling, pin capacity to 1, and walk a closed-loop ladder (N workers, one request"
          + " each) until the p95 TTFAB SLO breaks; bisect to +/-1. Restores the endpoint on every"
          + " exit path. Writes qmax-<model>-<transport>-<slug>.json.",
      Flags.DRY_RUN
          + " prints the schedule and a wall-clock estimate without touching the endpoint."
    })
final class QmaxCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ChainOptions common;

  @Option(
      names = Flags.SLO,
      paramLabel = "DURATION",
      description = "p95 TTFAB SLO (default: ttfab_slo_ms of the endpoint config)")
  @Nullable Duration slo;

  /** The published tool's {@code --slo-ms 3000}: the same SLO in whole milliseconds. */
  @Option(names = Flags.SLO_MS, hidden = true, paramLabel = "MS")
  void sloMs(long ms) {
    slo = Duration.ofMillis(ms);
  }

  @Option(
      names = Flags.TRANSPORT,
      paramLabel = "http-stream|response-stream|bidi",
      description = "default http-stream locally, response-stream on aws")
  @Nullable String transport;

  @Option(
      names = {Flags.RUNGS, Flags.CONCURRENCY},
      split = ",",
      paramLabel = "N,N,...",
      description =
          "coarse concurrencies (default: the platform's ladder, local 1,2,4,8,16,32; aws"
              + " 1,5,10,20,30,40,50,60)")
  @Nullable List<Integer> rungs;

  @Option(
      names = Flags.HOLD,
      paramLabel = "DURATION",
      converter = PublishedSeconds.class,
      description =
          "how long each rung is held; its first measured window ends there, later ones follow"
              + " while they disagree, up to --max-hold (default: local 30s, aws 240s)")
  @Nullable Duration hold;

  @Option(
      names = {Flags.WINDOW, Flags.MEASURE_WINDOW},
      paramLabel = "DURATION",
      converter = PublishedSeconds.class,
      description =
          "one measurement window; the first is the trailing part of the hold, before it is"
              + " warm-up (default: local 20s, aws 60s)")
  @Nullable Duration window;

  @Option(
      names = {Flags.SETTLE, Flags.SETTLE_BETWEEN_STEPS},
      paramLabel = "DURATION",
      converter = PublishedSeconds.class,
      description =
          "idle time between rungs so the previous queue drains (default: local 0s, aws 30s)")
  @Nullable Duration settle;

  @Mixin StabilityOptions stability;

  @Option(
      names = Flags.WARMUP,
      defaultValue = "20s",
      paramLabel = "DURATION",
      description =
          "load sent at N=4 before the first rung and not measured, so the ladder does not start"
              + " on a cold server; 0s for none (default ${DEFAULT-VALUE})")
  Duration warmup;

  @Option(names = Flags.RUNS, defaultValue = "1", description = "passes of the ladder (default 1)")
  int runs;

  @Option(
      names = Flags.NO_REFINE,
      description = "skip the bisection (Q_max exact to the rung spacing)")
  boolean noRefine;

  @Option(
      names = Flags.DRIFT_CHECK,
      defaultValue = "end",
      paramLabel = "end|bisection|off",
      description =
          "re-measure the reference rung (each run's highest coarse rung that meets the SLO) at"
              + " the end of the run, also between bisection steps, or never, and compare it with"
              + " its first measurement (default ${DEFAULT-VALUE})")
  String driftCheck;

  @Option(
      names = Flags.DRIFT_TOLERANCE,
      defaultValue = "10",
      paramLabel = "PERCENT",
      description =
          "throughput change of the re-measured reference rung, in percent of its first"
              + " measurement, still counted as noise; beyond it the artifact carries a drift"
              + " finding and the plan warns (default ${DEFAULT-VALUE})")
  String driftTolerance;

  @Option(
      names = Flags.DRIFT_P95_TOLERANCE,
      defaultValue = "15",
      paramLabel = "PERCENT",
      description = "the same for its p95 TTFAB (default ${DEFAULT-VALUE})")
  String driftP95Tolerance;

  @Option(
      names = Flags.DRIFT_REWARM_BUDGET,
      defaultValue = "5m",
      paramLabel = "DURATION",
      description =
          "when the end-of-run re-check drifts beyond tolerance and the host-speed probe says the"
              + " machine did not move, the extra time the run may spend warming the instance up"
              + " (at the reference rung, until its windows agree) and measuring its rungs again;"
              + " 0s only flags the drift (default ${DEFAULT-VALUE})")
  Duration driftRewarmBudget;

  @Option(
      names = Flags.NO_IDLE_RUNG,
      description =
          "skip the open-loop rung after the ladder (Poisson at 0.45 x the best throughput for"
              + " about 150 requests, 1.5 to 4 windows) that measures how an instance below saturation serves requests that"
              + " find it idle; without it the simulator and replay assume they serve as queued"
              + " ones")
  boolean noIdleRung;

  @Option(
      names = Flags.ALLOW_UNENFORCED_CPU,
      description =
          "measure even when the instance type's CPU limit is not in force (no writable cpu"
              + " cgroup), recording it as not enforced; by default qmax stops")
  boolean allowUnenforcedCpu;

  @Option(
      names = Flags.TEXTS,
      paramLabel = "FILE",
      description = "one request text per line (default: built-in Harvard sentences)")
  @Nullable Path texts;

  @Option(names = Flags.SEED, defaultValue = "1", description = "text shuffle seed (default 1)")
  long seed;

  @Option(names = Flags.EVENTS, paramLabel = "FILE", description = "per-request JSON-lines log")
  @Nullable Path events;

  @Option(
      names = Flags.OUTPUT,
      paramLabel = "FILE",
      description = "artifact path (default qmax-<model>-<transport>-<slug>.json)")
  @Nullable Path output;

  @Option(names = Flags.JSON, description = "print the artifact as JSON")
  boolean json;

  @Option(names = Flags.DRY_RUN, description = "print the schedule and estimate; no endpoint calls")
  boolean dryRun;

  @Option(
      names = {Flags.ASSUME_SERVICE_TIME, Flags.DRY_RUN_S},
      converter = PublishedSeconds.class,
      defaultValue = "100ms",
      paramLabel = "DURATION",
      description = "dry run: one uncontended request's service time (default ${DEFAULT-VALUE})")
  Duration assumedService;

  @Option(
      names = Flags.ASSUME_PARALLELISM,
      defaultValue = "1",
      description = "dry run: requests the server really serves at once (default 1, serial)")
  int assumedParallelism;

  @Override
  public Integer call() {
    common.checkTransport(transport);
    double sloMs = slo != null ? slo.toMillis() : common.endpointConfig().ttfabSloMs();
    LadderDefaults defaults = common.ladderDefaults();
    LadderSpec ladder = ladder(defaults, sloMs);
    PrintWriter out = spec.commandLine().getOut();
    if (dryRun) {
      DryRun.ServiceAssumption assumed =
          new DryRun.ServiceAssumption(assumedService, assumedService, assumedParallelism);
      DryRun.Estimate estimate = DryRun.estimate(ladder, assumed);
      double peak =
          estimate.rows().stream().mapToDouble(DryRun.Row::throughputPerSecond).max().orElse(0);
      out.print(
          QmaxSchedule.render(
              common.platform,
              defaults,
              ladder,
              estimate,
              BisectionAllowance.worstCase(ladder, assumed),
              noIdleRung ? Duration.ZERO : QmaxRun.idleRungLength(ladder.window(), peak)));
      return 0;
    }
    Transport t = common.transport(transport);
    Map<String, Object> params = parameters(t, ladder, defaults);
    PrintStream err =
        new PrintStream(
            new WriterOutputStream(spec.commandLine().getErr()), true, StandardCharsets.UTF_8);
    QmaxArtifact a;
    try (Platform platform = common.open()) {
      a =
          QmaxRun.run(
              platform,
              new QmaxRun.Options(
                  common.model(),
                  t,
                  ladder,
                  Texts.load(texts),
                  seed,
                  events,
                  null, // the settle bound comes from the platform (its start-up bound)
                  Cli.commandLine(spec),
                  params,
                  !noIdleRung),
              allowUnenforcedCpu,
              ChainClock.system(),
              new ProgressPrinter(err, sloMs),
              line -> spec.commandLine().getErr().println(line));
    }
    Path target = output != null ? output : Path.of(a.defaultFileName());
    ArtifactCodec.write(target, a);
    if (json) {
      out.print(ArtifactCodec.toJson(a));
    } else {
      QmaxSummary.print(out, a, target, common.model(), common.stateDir);
    }
    return 0;
  }

  /** The ladder the flags ask for, the platform's defaults where they say nothing. */
  private LadderSpec ladder(LadderDefaults defaults, double sloMs) {
    Duration effectiveHold = hold != null ? hold : defaults.hold();
    Duration effectiveWindow = window != null ? window : defaults.window();
    DriftRecheck drift =
        DriftFlags.recheck(spec, driftCheck, driftTolerance, driftP95Tolerance)
            .withRewarmBudget(DriftFlags.budget(spec, driftRewarmBudget));
    StabilityRule stabilityRule = stability.rule(spec, effectiveHold, effectiveWindow);
    return LadderSpec.of(
            rungs != null ? rungs : defaults.rungs(), effectiveHold, effectiveWindow, runs, sloMs)
        .withRefine(!noRefine)
        .withWarmup(warmup)
        .withSettle(settle != null ? settle : defaults.settle())
        .withDrift(drift)
        .withStability(stabilityRule);
  }

  /** The run's parameters, as the artifact records them. */
  private Map<String, Object> parameters(Transport t, LadderSpec ladder, LadderDefaults defaults) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("model", common.model());
    params.put("platform", common.platform);
    params.put("transport", t.label());
    params.put("slo_ms", ladder.sloMs());
    params.put("rungs", ladder.rungs());
    params.put("hold_s", ladder.hold().toMillis() / 1000.0);
    params.put("window_s", ladder.window().toMillis() / 1000.0);
    params.put("settle_s", ladder.settle().toMillis() / 1000.0);
    StabilityOptions.record(ladder.stability(), params);
    params.put("ladder_defaults", defaults.source());
    params.put("warmup_s", warmup.toMillis() / 1000.0);
    params.put("runs", runs);
    params.put("refine", !noRefine);
    params.put("drift_check", ladder.drift().mode().label());
    params.put("drift_tolerance_pct", ladder.drift().throughputTolerancePct());
    params.put("drift_p95_tolerance_pct", ladder.drift().p95TolerancePct());
    params.put("drift_rewarm_budget_s", ladder.drift().rewarmBudget().toMillis() / 1000.0);
    params.put("drift_host_tolerance_pct", ladder.drift().hostTolerancePct());
    params.put("allow_unenforced_cpu", allowUnenforcedCpu);
    params.put("seed", seed);
    params.put("texts", texts == null ? "built-in Harvard sentences" : texts.toString());
    return params;
  }
}
