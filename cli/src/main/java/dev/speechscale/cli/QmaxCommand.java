package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.chain.ChainClock;
import dev.speechscale.chain.QmaxRun;
import dev.speechscale.chain.Texts;
import dev.speechscale.loadgen.DryRun;
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.loadgen.ProgressPrinter;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.Transport;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
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
      "--dry-run prints the schedule and a wall-clock estimate without touching the endpoint."
    })
final class QmaxCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ChainOptions common;

  @Option(
      names = "--slo",
      paramLabel = "DURATION",
      description = "p95 TTFAB SLO (default: ttfab_slo_ms of the endpoint config)")
  Duration slo;

  @Option(
      names = "--transport",
      paramLabel = "http-stream|response-stream|bidi",
      description = "default http-stream locally, response-stream on aws")
  String transport;

  @Option(
      names = "--rungs",
      split = ",",
      paramLabel = "N,N,...",
      defaultValue = "1,2,4,8,16,32",
      description = "coarse concurrencies (default ${DEFAULT-VALUE})")
  List<Integer> rungs;

  @Option(
      names = "--hold",
      defaultValue = "30s",
      paramLabel = "DURATION",
      description = "how long each rung is held (default ${DEFAULT-VALUE})")
  Duration hold;

  @Option(
      names = "--window",
      defaultValue = "20s",
      paramLabel = "DURATION",
      description = "the trailing part of the hold that is measured (default ${DEFAULT-VALUE})")
  Duration window;

  @Option(
      names = "--warmup",
      defaultValue = "20s",
      paramLabel = "DURATION",
      description =
          "load sent at N=4 before the first rung and not measured, so the ladder does not start"
              + " on a cold server; 0s for none (default ${DEFAULT-VALUE})")
  Duration warmup;

  @Option(names = "--runs", defaultValue = "1", description = "passes of the ladder (default 1)")
  int runs;

  @Option(
      names = "--no-refine",
      description = "skip the bisection (Q_max exact to the rung spacing)")
  boolean noRefine;

  @Option(
      names = "--texts",
      paramLabel = "FILE",
      description = "one request text per line (default: built-in Harvard sentences)")
  Path texts;

  @Option(names = "--seed", defaultValue = "1", description = "text shuffle seed (default 1)")
  long seed;

  @Option(names = "--events", paramLabel = "FILE", description = "per-request JSON-lines log")
  Path events;

  @Option(
      names = "--output",
      paramLabel = "FILE",
      description = "artifact path (default qmax-<model>-<transport>-<slug>.json)")
  Path output;

  @Option(names = "--json", description = "print the artifact as JSON")
  boolean json;

  @Option(names = "--dry-run", description = "print the schedule and estimate; no endpoint calls")
  boolean dryRun;

  @Option(
      names = "--assume-service-time",
      defaultValue = "100ms",
      paramLabel = "DURATION",
      description = "dry run: one uncontended request's service time (default ${DEFAULT-VALUE})")
  Duration assumedService;

  @Option(
      names = "--assume-parallelism",
      defaultValue = "1",
      description = "dry run: requests the server really serves at once (default 1, serial)")
  int assumedParallelism;

  @Override
  public Integer call() {
    double sloMs = slo != null ? slo.toMillis() : common.endpointConfig().ttfabSloMs();
    LadderSpec ladder =
        LadderSpec.of(rungs, hold, window, runs, sloMs).withRefine(!noRefine).withWarmup(warmup);
    PrintWriter out = spec.commandLine().getOut();
    if (dryRun) {
      DryRun.Estimate e =
          DryRun.estimate(
              ladder,
              new DryRun.ServiceAssumption(assumedService, assumedService, assumedParallelism));
      out.printf(Locale.ROOT, "dry run (no endpoint calls): %s%n", e.model());
      if (e.warmup() != null) {
        DryRun.Row w = e.warmup();
        out.printf(
            Locale.ROOT,
            "  warm-up (not measured): N=%d, %.1f req/s, %d requests, %.1f s%n",
            w.concurrency(),
            w.throughputPerSecond(),
            w.requests(),
            w.wallTime().toMillis() / 1000.0);
      }
      out.printf(
          Locale.ROOT,
          "  %-4s %-4s %-9s %-6s %10s %10s %12s %9s%n",
          "run",
          "step",
          "phase",
          "N",
          "req/s",
          "requests",
          "TTFAB ms",
          "wall s");
      for (DryRun.Row r : e.rows()) {
        out.printf(
            Locale.ROOT,
            "  %-4d %-4d %-9s %-6d %10.1f %10d %12.1f %9.1f%n",
            r.runIndex(),
            r.stepIndex(),
            r.phase().name().toLowerCase(Locale.ROOT),
            r.concurrency(),
            r.throughputPerSecond(),
            r.requests(),
            r.predictedTtfabMs(),
            r.wallTime().toMillis() / 1000.0);
      }
      out.printf(
          Locale.ROOT,
          "total: %s wall clock, %d requests, predicted Q_max %d at SLO %.0f" + " ms%n",
          ProgressPrinterFormat.duration(e.wallClock()),
          e.requests(),
          e.predictedQmax(),
          sloMs);
      return 0;
    }
    Transport t = common.transport(transport);
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("model", common.model);
    params.put("platform", common.platform);
    params.put("transport", t.label());
    params.put("slo_ms", sloMs);
    params.put("rungs", ladder.rungs());
    params.put("hold_s", hold.toMillis() / 1000.0);
    params.put("window_s", window.toMillis() / 1000.0);
    params.put("warmup_s", warmup.toMillis() / 1000.0);
    params.put("runs", runs);
    params.put("refine", !noRefine);
    params.put("seed", seed);
    params.put("texts", texts == null ? "built-in Harvard sentences" : texts.toString());
    PrintStream err =
        new PrintStream(
            new WriterOutputStream(spec.commandLine().getErr()), true, StandardCharsets.UTF_8);
    QmaxArtifact a;
    try (Platform platform = common.open()) {
      a =
          QmaxRun.run(
              platform,
              new QmaxRun.Options(
                  common.model,
                  t,
                  ladder,
                  Texts.load(texts),
                  seed,
                  events,
                  null, // the settle bound comes from the platform (its start-up bound)
                  "tts-bench qmax "
                      + String.join(" ", spec.commandLine().getParseResult().originalArgs()),
                  params),
              ChainClock.system(),
              new ProgressPrinter(err, sloMs),
              line -> spec.commandLine().getErr().println(line));
    }
    Path target = output != null ? output : Path.of(a.defaultFileName());
    ArtifactCodec.write(target, a);
    if (json) {
      out.print(ArtifactCodec.toJson(a));
    } else {
      out.printf(
          Locale.ROOT,
          "Q_max %d at p95 TTFAB <= %.0f ms on %s (%s%s); S_mean %.1f ms," + " S_p95 %.1f ms%n",
          a.qMax(),
          a.sloMs(),
          a.endpoint(),
          Boolean.TRUE.equals(a.qMaxBracketed()) ? "bracketed" : "NOT bracketed: a lower bound",
          Boolean.TRUE.equals(a.refined()) ? ", refined to +/-1" : "",
          a.sMeanS() == null ? Double.NaN : a.sMeanS() * 1000,
          a.sP95S() == null ? Double.NaN : a.sP95S() * 1000);
      out.println("wrote " + target);
      out.println(
          "next: tts-bench ttotal --model "
              + common.model
              + " --qmax "
              + target
              + (common.stateDir == null ? "" : " --state-dir " + common.stateDir));
    }
    return 0;
  }

  /** Duration formatting shared with the progress printer. */
  static final class ProgressPrinterFormat {
    private ProgressPrinterFormat() {}

    static String duration(Duration d) {
      long s = d.toSeconds();
      return s >= 3600
          ? String.format(Locale.ROOT, "%dh%02dm%02ds", s / 3600, s % 3600 / 60, s % 60)
          : s >= 60 ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60) : s + "s";
    }
  }
}
