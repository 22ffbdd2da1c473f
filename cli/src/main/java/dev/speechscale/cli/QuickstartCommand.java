package dev.speechscale.cli;

import dev.speechscale.artifacts.Artifact;
import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.DriftArtifact;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.ToolVersion;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.capacity.Load;
import dev.speechscale.capacity.Scenario;
import dev.speechscale.chain.ChainClock;
import dev.speechscale.chain.Drift;
import dev.speechscale.chain.PlanRun;
import dev.speechscale.chain.QmaxRun;
import dev.speechscale.chain.Report;
import dev.speechscale.chain.Texts;
import dev.speechscale.chain.TtotalRun;
import dev.speechscale.chain.ValidateRun;
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.loadgen.ProgressPrinter;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.Transport;
import dev.speechscale.platform.local.LocalDeployer;
import dev.speechscale.platform.local.LocalPlatform;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tts-bench quickstart}: the product's main job on a fresh machine. Deploys a local endpoint
 * with the default engine, runs drift → qmax → ttotal → plan → deploy-with-plan → validate, writes
 * every artifact and a self-contained HTML report, prints a short summary with the command that
 * reruns each step, and destroys the endpoint.
 */
@Command(
    name = "quickstart",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Deploy a local flite endpoint, measure it (drift, qmax, ttotal), derive its plan, redeploy"
          + " behind the plan, validate it live, write the artifacts and report.html, and destroy"
          + " the endpoint. About 5 minutes on 2 cores."
    })
final class QuickstartCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--output-dir",
      paramLabel = "DIR",
      description =
          "where artifacts and the report go (default speechscale-runs/quickstart-<time>)")
  Path outputDir;

  @Option(
      names = "--model",
      defaultValue = "quickstart",
      description = "model name (default" + " ${DEFAULT-VALUE})")
  String model;

  @Option(
      names = "--slo",
      defaultValue = "1000ms",
      paramLabel = "DURATION",
      description = "p95 TTFAB SLO (default ${DEFAULT-VALUE})")
  Duration slo;

  @Option(
      names = "--rungs",
      split = ",",
      defaultValue = "1,2,4,8,16,32",
      description = "qmax coarse rungs (default ${DEFAULT-VALUE})")
  List<Integer> rungs;

  @Option(
      names = "--hold",
      defaultValue = "8s",
      description = "qmax rung hold (default" + " ${DEFAULT-VALUE})")
  Duration hold;

  @Option(
      names = "--window",
      defaultValue = "5s",
      description = "qmax window (default" + " ${DEFAULT-VALUE})")
  Duration window;

  @Option(
      names = "--warmup",
      defaultValue = "20s",
      description = "qmax warm-up before the first rung, not measured (default ${DEFAULT-VALUE})")
  Duration warmup;

  @Option(
      names = "--recovery-window",
      defaultValue = "15s",
      description = "ttotal recovery window (default ${DEFAULT-VALUE})")
  Duration recoveryWindow;

  @Option(
      names = "--phase",
      defaultValue = "8s",
      description = "validate --live phase length (default ${DEFAULT-VALUE})")
  Duration phase;

  @Option(names = "--state-dir", paramLabel = "DIR", description = "local control state")
  Path stateDir;

  @Option(names = "--keep", description = "leave the endpoint running at the end")
  boolean keep;

  private PrintWriter err;

  @Override
  public Integer call() throws Exception {
    err = spec.commandLine().getErr();
    ChainClock clocks = ChainClock.system();
    Clock clock = clocks.wall();
    Instant started = clock.instant();
    Path dir =
        outputDir != null
            ? outputDir
            : Path.of(
                "speechscale-runs",
                "quickstart-"
                    + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)
                        .format(LocalDateTime.ofInstant(started, ZoneOffset.UTC)));
    Path root = stateDir != null ? stateDir : LocalPlatform.defaultRoot();
    java.nio.file.Files.createDirectories(dir);
    Path config = dir.resolve("endpoints.yaml");
    String endpoint = "speech-" + model;
    LocalDeployer deployer = new LocalDeployer(root, line -> err.println("  " + line));
    Map<String, String> rerun = new LinkedHashMap<>();
    String state = stateDir == null ? "" : " --state-dir " + stateDir;
    String common = " --model " + model + " --config " + config + state;
    try (Platform platform = new LocalPlatform(root)) {
      step(1, "deploy " + endpoint + " (flite, local.500mcpu, unbounded queue, no scaling yet)");
      ArtifactCodec.writeText(config, measureConfig());
      EndpointConfig measured = EndpointConfigFile.read(config).model(model);
      deployer.deploy(measured, config, null);
      rerun.put("deploy", "bin/speech-infra deploy" + common);

      step(2, "drift: is it deployed as configured?");
      List<DriftArtifact.Item> items =
          Drift.check(new Drift.Inputs(platform, measured, null, "(none yet)"), clock);
      DriftArtifact drift =
          new DriftArtifact(
              Artifact.SCHEMA_VERSION,
              ArtifactKind.DRIFT.label(),
              ToolVersion.current(),
              clock.instant(),
              Provenance.capture("tts-bench quickstart", Map.of("step", "drift")),
              model,
              endpoint,
              "local",
              items.stream().noneMatch(i -> i.severity() == DriftArtifact.Severity.ERROR),
              items);
      ArtifactCodec.write(dir.resolve("drift-" + model + ".json"), drift);
      if (!drift.clean()) {
        throw new CliException("drift found errors before measuring: " + items);
      }
      rerun.put("drift", "bin/tts-bench drift" + common);

      step(3, "qmax: the concurrency one instance holds inside " + slo.toMillis() + " ms");
      LadderSpec ladder =
          LadderSpec.of(rungs, hold, window, 1, (double) slo.toMillis()).withWarmup(warmup);
      QmaxArtifact q =
          QmaxRun.run(
              platform,
              new QmaxRun.Options(
                  model,
                  Transport.HTTP_STREAM,
                  ladder,
                  Texts.load(null),
                  1,
                  dir.resolve("qmax-events.jsonl"),
                  Duration.ofMinutes(5),
                  "tts-bench quickstart (qmax)",
                  Map.of(
                      "rungs",
                      rungs,
                      "hold",
                      hold.toString(),
                      "window",
                      window.toString(),
                      "warmup",
                      warmup.toString())),
              clocks,
              new ProgressPrinter(stderr(), slo.toMillis()),
              line -> err.println("  " + line));
      Path qmaxFile = dir.resolve(q.defaultFileName());
      ArtifactCodec.write(qmaxFile, q);
      err.printf(
          Locale.ROOT,
          "  Q_max %d (%s), S_mean %.1f ms%n",
          q.qMax(),
          Boolean.TRUE.equals(q.qMaxBracketed()) ? "bracketed" : "lower bound",
          q.sMeanS() * 1000);
      rerun.put(
          "qmax",
          "bin/tts-bench qmax"
              + common
              + " --rungs "
              + join(rungs)
              + " --warmup "
              + warmup.toSeconds()
              + "s --hold "
              + hold.toSeconds()
              + "s --window "
              + window.toSeconds()
              + "s --slo "
              + slo.toMillis()
              + "ms");

      step(4, "ttotal: a real scale-out, stage by stage");
      TtotalArtifact t =
          TtotalRun.run(
              platform,
              new TtotalRun.Options(
                  model,
                  q,
                  qmaxFile.toString(),
                  Transport.HTTP_STREAM,
                  null,
                  recoveryWindow,
                  Duration.ofSeconds(5),
                  Duration.ofMinutes(5),
                  false,
                  Texts.load(null),
                  1,
                  "tts-bench quickstart (ttotal)",
                  Map.of("recovery_window", recoveryWindow.toString())),
              clocks,
              line -> err.println("  " + line));
      Path ttotalFile = dir.resolve(t.defaultFileName());
      ArtifactCodec.write(ttotalFile, t);
      err.printf(
          Locale.ROOT,
          "  T_total %.1f s measured + %.0f s policy lag bound%n",
          t.tTotalS(),
          t.policyLagBoundS());
      rerun.put(
          "ttotal",
          "bin/tts-bench ttotal"
              + common
              + " --qmax "
              + qmaxFile
              + " --recovery-window "
              + recoveryWindow.toSeconds()
              + "s");

      step(5, "plan: thresholds, cooldowns and fleet from the two measurements");
      double peakRps = Math.ceil(1.6 * peakThroughput(q));
      Scenario shape =
          new Scenario(1, 1.25, new Load.RequestRate(peakRps), null, 1, 0.10, 60, 1, 0);
      PlanRun.Result r =
          PlanRun.run(
              new PlanRun.Options(
                  qmaxFile,
                  ttotalFile,
                  null,
                  shape,
                  null,
                  false,
                  "tts-bench quickstart (plan)",
                  Map.of("peak_rps", peakRps)),
              line -> err.println("  " + line),
              clock.instant());
      PlanArtifact plan = r.artifact();
      Path planFile = dir.resolve(plan.defaultFileName());
      ArtifactCodec.write(planFile, plan);
      err.printf(
          Locale.ROOT,
          "  verdict %s: target %s, scale-in %s, cooldowns %d s / %d s,"
              + " queue %d, %d..%d instances%n",
          plan.verdict().label(),
          plan.scalingTargetValue(),
          plan.scaleInThreshold(),
          plan.scaleOutCooldownS(),
          plan.scaleInCooldownS(),
          plan.queueMaxDepth(),
          plan.minInstances(),
          plan.maxInstances());
      rerun.put(
          "plan",
          "bin/tts-bench plan --qmax "
              + qmaxFile
              + " --ttotal "
              + ttotalFile
              + " --peak-rps "
              + (long) peakRps
              + " --output "
              + planFile);
      if (!plan.hasUnitsConversion() || plan.infeasible()) {
        throw new CliException(
            "the plan cannot attach scaling (" + plan.verdict().label() + "); see " + planFile);
      }

      step(
          6,
          "deploy behind the plan (queue_max_depth "
              + plan.queueMaxDepth()
              + ", policies"
              + " attached)");
      Path plannedConfig = dir.resolve("endpoints-planned.yaml");
      ArtifactCodec.writeText(plannedConfig, plannedConfig(plan));
      LocalDeployer.Deployed d =
          deployer.deploy(
              EndpointConfigFile.read(plannedConfig).model(model), plannedConfig, planFile);
      err.println("  " + d.scalingReason());
      rerun.put(
          "deploy-with-plan",
          "bin/speech-infra deploy --model "
              + model
              + " --config "
              + plannedConfig
              + " --plan "
              + planFile
              + state);

      step(7, "validate: the deployed policy is the plan, and it behaves like it (live)");
      ValidateArtifact v =
          ValidateRun.run(
              platform,
              new ValidateRun.Options(
                  model,
                  plan,
                  planFile.toString(),
                  true,
                  Transport.HTTP_STREAM,
                  phase,
                  Texts.load(null),
                  "tts-bench quickstart (validate)",
                  Map.of("phase", phase.toString())),
              clock,
              line -> err.println("  " + line));
      ArtifactCodec.write(dir.resolve("validate-" + model + ".json"), v);
      rerun.put(
          "validate",
          "bin/tts-bench validate --model "
              + model
              + " --config "
              + plannedConfig
              + " --plan "
              + planFile
              + " --live"
              + state);

      step(8, "report");
      Path report = dir.resolve("report.html");
      ArtifactCodec.writeText(
          report,
          Report.html(
              new Report.Inputs(
                  "SpeechScale quickstart: " + endpoint, q, t, plan, v, drift, rerun)));
      summary(q, t, plan, v, dir, report, rerun, Duration.between(started, clock.instant()));
      return v.verdict().failed() ? 1 : 0;
    } finally {
      if (!keep) {
        err.println("destroying " + endpoint);
        deployer.destroy(endpoint);
      }
    }
  }

  private String measureConfig() {
    return "# written by tts-bench quickstart: the measurement deployment (no scaling, no queue"
        + " bound)\nmodels:\n  "
        + model
        + ":\n    engine: flite\n    engine_settings:"
        + " {segmentation: sentence}\n    instance_type: local.500mcpu\n    min_instances: 1\n"
        + "    max_instances: 2\n    ttfab_slo_ms: "
        + slo.toMillis()
        + "\n    queue_max_depth:"
        + " 0\n";
  }

  private String plannedConfig(PlanArtifact p) {
    return "# written by tts-bench quickstart from "
        + p.defaultFileName()
        + "\nmodels:\n  "
        + model
        + ":\n    engine: flite\n    engine_settings: {segmentation: sentence}\n"
        + p.configBlock().lines().skip(2).map(l -> l + "\n").reduce("", String::concat);
  }

  private static double peakThroughput(QmaxArtifact q) {
    return q.steps().stream()
        .filter(QmaxStep::isUsable)
        .filter(s -> s.achievedRps() != null)
        .mapToDouble(QmaxStep::achievedRps)
        .max()
        .orElse(1);
  }

  private void summary(
      QmaxArtifact q,
      TtotalArtifact t,
      PlanArtifact p,
      ValidateArtifact v,
      Path dir,
      Path report,
      Map<String, String> rerun,
      Duration took) {
    PrintWriter out = spec.commandLine().getOut();
    out.printf(
        Locale.ROOT,
        "%nquickstart finished in %s%n",
        QmaxCommand.ProgressPrinterFormat.duration(took));
    out.printf(
        Locale.ROOT,
        "  Q_max        %d concurrent at p95 TTFAB <= %.0f ms (%s)%n",
        q.qMax(),
        q.sloMs(),
        Boolean.TRUE.equals(q.qMaxBracketed()) ? "bracketed" : "lower bound");
    out.printf(
        Locale.ROOT,
        "  T_total      %.1f s measured + %.0f s policy lag = %.1f s%n",
        t.tTotalS(),
        t.policyLagBoundS(),
        t.tTotalWithPolicyBoundS());
    out.printf(
        Locale.ROOT,
        "  plan         %s: target %.3f, scale-in %.3f, cooldowns %d s / %d s," + " queue %d%n",
        p.verdict().label(),
        p.scalingTargetValue(),
        p.scaleInThreshold(),
        p.scaleOutCooldownS(),
        p.scaleInCooldownS(),
        p.queueMaxDepth());
    out.printf(Locale.ROOT, "  validate     %s%n", v.verdict().label());
    out.printf(Locale.ROOT, "  artifacts    %s%n", dir);
    out.printf(Locale.ROOT, "  report       %s%n", report);
    out.println("rerun any step on its own:");
    rerun.forEach((k, c) -> out.printf(Locale.ROOT, "  %-17s %s%n", k, c));
  }

  private void step(int n, String what) {
    err.printf(Locale.ROOT, "[%d/8] %s%n", n, what);
    err.flush();
  }

  private PrintStream stderr() {
    return new PrintStream(new WriterOutputStream(err), true, StandardCharsets.UTF_8);
  }

  private static String join(List<Integer> xs) {
    return String.join(",", xs.stream().map(String::valueOf).toList());
  }
}
