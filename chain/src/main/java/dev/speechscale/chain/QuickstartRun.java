package dev.speechscale.chain;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.DriftArtifact;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.capacity.Load;
import dev.speechscale.capacity.Scenario;
import dev.speechscale.loadgen.LadderListener;
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.Transport;
import dev.speechscale.simulator.FleetSimulator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code quickstart} as a composition of the chain's steps: deploy a measurement endpoint, drift →
 * qmax → ttotal → plan → deploy behind the plan → validate (live) → replay (a 90 s calibration
 * trace, the simulator's prediction against the live fleet) → report, each artifact written into
 * one directory with the command line that reruns its step, and the endpoint destroyed at the end
 * unless kept. Deployment goes through {@link Deployments}, so the chain stays free of any one
 * platform's deployer.
 *
 * <p>Longer than the other steps because it is their sequence; each phase is a short method.
 */
public final class QuickstartRun {
  private static final Duration REPLAY_QUIET = Duration.ofSeconds(20);
  private static final Duration REPLAY_SURGE = Duration.ofSeconds(40);
  private static final Duration REPLAY_FALL = Duration.ofSeconds(30);

  private QuickstartRun() {}

  /** Deploys and destroys the endpoint for the composition. */
  public interface Deployments {
    /**
     * Deploys (or replaces) the model from the config file, behind the plan when given, and returns
     * once it is in service.
     *
     * @return the sentence saying whether scaling was attached and why
     */
    String deploy(EndpointConfig model, Path configFile, Path planFile);

    /** Stops everything of the endpoint. */
    void destroy(String endpoint);
  }

  /**
   * What to run.
   *
   * @param model the model; the endpoint is speech-&lt;model&gt;
   * @param outputDir where artifacts and the report go, or {@code null} for {@code
   *     speechscale-runs/quickstart-<time>}
   * @param slo the p95 TTFAB SLO
   * @param rungs qmax coarse rungs
   * @param hold qmax rung hold
   * @param window qmax window
   * @param warmup qmax warm-up, not measured
   * @param recoveryWindow ttotal recovery window
   * @param phase validate live phase length
   * @param stateDirArgument {@code " --state-dir DIR"} for the rerun lines, or {@code ""}
   * @param keep leave the endpoint running at the end
   * @param awsPhysics SageMaker's physics on the local endpoint ({@code local.aws_physics} in both
   *     configs it writes), {@link EndpointConfig.AwsPhysics#OFF} for none
   */
  public record Options(
      String model,
      Path outputDir,
      Duration slo,
      List<Integer> rungs,
      Duration hold,
      Duration window,
      Duration warmup,
      Duration recoveryWindow,
      Duration phase,
      String stateDirArgument,
      boolean keep,
      EndpointConfig.AwsPhysics awsPhysics) {
    public Options {
      rungs = List.copyOf(rungs);
      awsPhysics = awsPhysics == null ? EndpointConfig.AwsPhysics.OFF : awsPhysics;
    }
  }

  /**
   * What the run produced.
   *
   * @param qmax the Q_max artifact
   * @param ttotal the T_total artifact
   * @param plan the plan artifact
   * @param validate the validate artifact
   * @param dir where everything was written
   * @param report the HTML report
   * @param rerun step name → the command line that reruns it, in order
   * @param took how long the run took
   */
  public record Result(
      QmaxArtifact qmax,
      TtotalArtifact ttotal,
      PlanArtifact plan,
      ValidateArtifact validate,
      Path dir,
      Path report,
      Map<String, String> rerun,
      Duration took) {
    public Result {
      rerun = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(rerun));
    }
  }

  /**
   * Runs every step; progress goes to {@code err} ({@code [n/9] step} lines, indented details).
   *
   * @param platform the platform the endpoint runs on
   * @param deployments deploys and destroys the endpoint
   * @param o what to run
   * @param clocks the one time source
   * @param qmaxProgress the ladder's progress printer
   * @param err progress
   * @param finished given the result before the endpoint is destroyed (the summary is printed while
   *     the endpoint still runs)
   */
  public static Result run(
      Platform platform,
      Deployments deployments,
      Options o,
      ChainClock clocks,
      LadderListener qmaxProgress,
      PrintWriter err,
      Consumer<Result> finished) {
    Instant started = clocks.instant();
    Path dir =
        o.outputDir() != null
            ? o.outputDir()
            : Path.of(
                "speechscale-runs",
                "quickstart-"
                    + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)
                        .format(LocalDateTime.ofInstant(started, ZoneOffset.UTC)));
    var steps =
        new Steps(
            platform,
            deployments,
            o,
            clocks,
            qmaxProgress,
            err,
            started,
            dir,
            new LinkedHashMap<>());
    return steps.run(finished);
  }

  /**
   * One run's state: the directory, the rerun lines (filled as the steps pass), the progress
   * stream.
   */
  private record Steps(
      Platform platform,
      Deployments deployments,
      Options o,
      ChainClock clocks,
      LadderListener qmaxProgress,
      PrintWriter err,
      Instant started,
      Path dir,
      Map<String, String> rerun) {

    private Path config() {
      return dir.resolve("endpoints.yaml");
    }

    private String endpoint() {
      return "speech-" + o.model();
    }

    /** The options every rerun line of a measurement step shares. */
    private String common() {
      return " --model " + o.model() + " --config " + config() + o.stateDirArgument();
    }

    Result run(Consumer<Result> finished) {
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
      }
      try {
        EndpointConfig measured = deployForMeasurement();
        DriftArtifact drift = drift(measured);
        QmaxArtifact q = qmax();
        Path qmaxFile = dir.resolve(q.defaultFileName());
        TtotalArtifact t = ttotal(q, qmaxFile);
        Path ttotalFile = dir.resolve(t.defaultFileName());
        PlanArtifact plan = plan(q, qmaxFile, ttotalFile);
        Path planFile = dir.resolve(plan.defaultFileName());
        Path plannedConfig = deployBehind(plan, planFile);
        ValidateArtifact v = validate(plan, planFile, plannedConfig);
        ReplayArtifact replay = null;
        String replayNotRun = null;
        try {
          replay =
              replay(
                  new ReplayPrediction.Inputs(
                      q, qmaxFile.toString(), t, ttotalFile.toString(), plan, planFile.toString()),
                  plan,
                  planFile,
                  plannedConfig);
        } catch (ChainException e) {
          replayNotRun = e.getMessage();
          err.println("  replay not run: " + replayNotRun);
        }
        step(9, "report");
        Path report = dir.resolve("report.html");
        ArtifactCodec.writeText(
            report,
            Report.html(
                new Report.Inputs(
                    "SpeechScale quickstart: " + endpoint(),
                    q,
                    t,
                    plan,
                    v,
                    drift,
                    rerun,
                    replay,
                    replayNotRun)));
        Result result =
            new Result(
                q, t, plan, v, dir, report, rerun, Duration.between(started, clocks.instant()));
        finished.accept(result);
        return result;
      } finally {
        if (!o.keep()) {
          err.println("destroying " + endpoint());
          deployments.destroy(endpoint());
        }
      }
    }

    private EndpointConfig deployForMeasurement() {
      step(1, "deploy " + endpoint() + " (flite, local.500mcpu, unbounded queue, no scaling yet)");
      ArtifactCodec.writeText(config(), measureConfig());
      EndpointConfig measured = EndpointConfigFile.read(config()).model(o.model());
      deployments.deploy(measured, config(), null);
      rerun.put("deploy", "bin/speech-infra deploy" + common());
      return measured;
    }

    private DriftArtifact drift(EndpointConfig measured) {
      step(2, "drift: is it deployed as configured?");
      DriftArtifact drift =
          Drift.run(
              new Drift.Inputs(platform, measured, null, "(none yet)"),
              "tts-bench quickstart",
              Map.of("step", "drift"),
              clocks.wall());
      ArtifactCodec.write(dir.resolve("drift-" + o.model() + ".json"), drift);
      if (!drift.clean()) {
        throw new ChainException("drift found errors before measuring: " + drift.items());
      }
      rerun.put("drift", "bin/tts-bench drift" + common());
      return drift;
    }

    private QmaxArtifact qmax() {
      step(3, "qmax: the concurrency one instance holds inside " + o.slo().toMillis() + " ms");
      LadderSpec ladder =
          LadderSpec.of(o.rungs(), o.hold(), o.window(), 1, (double) o.slo().toMillis())
              .withWarmup(o.warmup());
      QmaxArtifact q =
          QmaxRun.run(
              platform,
              new QmaxRun.Options(
                  o.model(),
                  Transport.HTTP_STREAM,
                  ladder,
                  Texts.load(null),
                  1,
                  dir.resolve("qmax-events.jsonl"),
                  null,
                  "tts-bench quickstart (qmax)",
                  Map.of(
                      "rungs",
                      o.rungs(),
                      "hold",
                      o.hold().toString(),
                      "window",
                      o.window().toString(),
                      "warmup",
                      o.warmup().toString())),
              // the quickstart runs anywhere, root or not: where the instance type's CPU limit
              // cannot be enforced it measures anyway and the artifact says "not enforced"
              // (bin/tts-bench qmax stops instead unless --allow-unenforced-cpu)
              true,
              clocks,
              qmaxProgress,
              this::detail);
      ArtifactCodec.write(dir.resolve(q.defaultFileName()), q);
      err.printf(
          Locale.ROOT,
          "  Q_max %d (%s), S_mean %.1f ms%n",
          q.qMax(),
          Boolean.TRUE.equals(q.qMaxBracketed()) ? "bracketed" : "lower bound",
          q.sMeanS() * 1000);
      rerun.put(
          "qmax",
          "bin/tts-bench qmax"
              + common()
              + " --rungs "
              + String.join(",", o.rungs().stream().map(String::valueOf).toList())
              + " --warmup "
              + o.warmup().toSeconds()
              + "s --hold "
              + o.hold().toSeconds()
              + "s --window "
              + o.window().toSeconds()
              + "s --slo "
              + o.slo().toMillis()
              + "ms");
      return q;
    }

    private TtotalArtifact ttotal(QmaxArtifact q, Path qmaxFile) {
      step(4, "ttotal: a real scale-out, stage by stage");
      TtotalArtifact t =
          TtotalRun.run(
              platform,
              new TtotalRun.Options(
                  o.model(),
                  q,
                  qmaxFile.toString(),
                  Transport.HTTP_STREAM,
                  null,
                  o.recoveryWindow(),
                  Duration.ofSeconds(5),
                  null,
                  false,
                  Texts.load(null),
                  1,
                  "tts-bench quickstart (ttotal)",
                  Map.of("recovery_window", o.recoveryWindow().toString())),
              clocks,
              this::detail);
      ArtifactCodec.write(dir.resolve(t.defaultFileName()), t);
      err.printf(
          Locale.ROOT,
          "  T_total %.1f s measured + %.0f s policy lag bound%n",
          t.tTotalS(),
          t.policyLagBoundS());
      rerun.put(
          "ttotal",
          "bin/tts-bench ttotal"
              + common()
              + " --qmax "
              + qmaxFile
              + " --recovery-window "
              + o.recoveryWindow().toSeconds()
              + "s");
      return t;
    }

    private PlanArtifact plan(QmaxArtifact q, Path qmaxFile, Path ttotalFile) {
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
              this::detail,
              clocks.instant());
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
        throw new ChainException(
            "the plan cannot attach scaling (" + plan.verdict().label() + "); see " + planFile);
      }
      return plan;
    }

    private Path deployBehind(PlanArtifact plan, Path planFile) {
      step(
          6,
          "deploy behind the plan (queue_max_depth "
              + plan.queueMaxDepth()
              + ", policies"
              + " attached)");
      Path plannedConfig = dir.resolve("endpoints-planned.yaml");
      ArtifactCodec.writeText(plannedConfig, plannedConfig(plan));
      String scaling =
          deployments.deploy(
              EndpointConfigFile.read(plannedConfig).model(o.model()), plannedConfig, planFile);
      err.println("  " + scaling);
      rerun.put(
          "deploy-with-plan",
          "bin/speech-infra deploy --model "
              + o.model()
              + " --config "
              + plannedConfig
              + " --plan "
              + planFile
              + o.stateDirArgument());
      return plannedConfig;
    }

    private ValidateArtifact validate(PlanArtifact plan, Path planFile, Path plannedConfig) {
      step(7, "validate: the deployed policy is the plan, and it behaves like it (live)");
      ValidateArtifact v =
          ValidateRun.run(
              platform,
              new ValidateRun.Options(
                  o.model(),
                  plan,
                  planFile.toString(),
                  true,
                  Transport.HTTP_STREAM,
                  o.phase(),
                  Texts.load(null),
                  "tts-bench quickstart (validate)",
                  Map.of("phase", o.phase().toString())),
              clocks,
              this::detail);
      ArtifactCodec.write(dir.resolve("validate-" + o.model() + ".json"), v);
      rerun.put(
          "validate",
          "bin/tts-bench validate --model "
              + o.model()
              + " --config "
              + plannedConfig
              + " --plan "
              + planFile
              + " --live"
              + o.stateDirArgument());
      return v;
    }

    /**
     * A short replay (the calibration trace scaled to the plan's X at C_scale_max: 20 s quiet, 40 s
     * surge past one instance, 30 s quiet) on a fresh deployment behind the plan, predicted by the
     * simulator from this run's artifacts with no metric history (the fresh deployment's alarms
     * have none either), and compared.
     */
    private ReplayArtifact replay(
        ReplayPrediction.Inputs inputs, PlanArtifact plan, Path planFile, Path plannedConfig) {
      step(8, "replay: the simulator's prediction against the live fleet (90 s of traffic)");
      // validate left the fleet scaled out; a fresh deployment starts at the floor, quiet
      deployments.deploy(
          EndpointConfigFile.read(plannedConfig).model(o.model()), plannedConfig, planFile);
      Path trace = dir.resolve("trace-calibration.csv");
      ReplayArtifact a =
          Replay.run(
              platform,
              new Replay.Request(
                  o.model(),
                  inputs,
                  new Replay.TraceSource.Calibration(
                      trace, REPLAY_QUIET, REPLAY_SURGE, REPLAY_FALL),
                  1,
                  Duration.ZERO,
                  Transport.HTTP_STREAM,
                  Texts.load(null),
                  Duration.ofMillis(200),
                  true,
                  "tts-bench quickstart (replay)",
                  Map.of(
                      "quiet",
                      "20s",
                      "surge",
                      "40s",
                      "fall",
                      "30s",
                      "pre_roll",
                      "0s",
                      "warmup_s",
                      o.warmup().toMillis() / 1000.0),
                  new FleetSimulator.PreRoll.None(),
                  dir.resolve("replay-events.jsonl"),
                  o.warmup()),
              clocks.wall(),
              clocks.monotonic(),
              this::detail);
      ArtifactCodec.write(dir.resolve("replay-" + o.model() + ".json"), a);
      a.comparison().stream()
          .filter(r -> r.minute() == null)
          .forEach(r ->
              err.printf(
                  Locale.ROOT,
                  "  %s: predicted %s, measured %s (%s)%n",
                  r.figure(),
                  r.predicted() == null ? "-" : String.format(Locale.ROOT, "%.2f", r.predicted()),
                  r.measured() == null ? "-" : String.format(Locale.ROOT, "%.2f", r.measured()),
                  r.result()));
      rerun.put(
          "replay",
          "bin/speech-infra deploy --model "
              + o.model()
              + " --config "
              + plannedConfig
              + " --plan "
              + planFile
              + o.stateDirArgument()
              + " && bin/tts-bench replay"
              + " --model "
              + o.model()
              + " --config "
              + plannedConfig
              + o.stateDirArgument()
              + " --plan "
              + planFile
              + " --qmax "
              + inputs.qmaxFile()
              + " --ttotal "
              + inputs.ttotalFiles()
              + " --calibration "
              + trace
              + " --quiet 20s --surge 40s --fall 30s --pre-roll 0s --warmup "
              + o.warmup().toSeconds()
              + "s");
      return a;
    }

    private String measureConfig() {
      return "# written by tts-bench quickstart: the measurement deployment (no scaling, no queue"
          + " bound)\nmodels:\n  "
          + o.model()
          + ":\n    engine: flite\n    engine_settings:"
          + " {segmentation: sentence}\n    instance_type: local.500mcpu\n    min_instances: 1\n"
          + "    max_instances: 2\n    ttfab_slo_ms: "
          + o.slo().toMillis()
          + "\n    queue_max_depth:"
          + " 0\n"
          + physicsBlock();
    }

    /** The {@code local.aws_physics} block of both configs, or nothing when physics is off. */
    private String physicsBlock() {
      EndpointConfig.AwsPhysics p = o.awsPhysics();
      if (!p.on()) {
        return "";
      }
      return String.format(
          Locale.ROOT,
          "    local:\n      aws_physics: {metric_delay_s: %d, control_calls_per_s: %s,"
              + " instance_start_s: %d}\n",
          p.metricDelayS(),
          ValidateRun.fmt(p.controlCallsPerSecond()),
          p.instanceStartS());
    }

    private String plannedConfig(PlanArtifact p) {
      return "# written by tts-bench quickstart from "
          + p.defaultFileName()
          + "\nmodels:\n  "
          + o.model()
          + ":\n    engine: flite\n    engine_settings: {segmentation: sentence}\n"
          + p.configBlock().lines().skip(2).map(l -> l + "\n").reduce("", String::concat)
          + physicsBlock();
    }

    /** An indented progress line under the current step. */
    private void detail(String line) {
      err.println("  " + line);
    }

    private void step(int n, String what) {
      err.printf(Locale.ROOT, "[%d/9] %s%n", n, what);
      err.flush();
    }
  }

  private static double peakThroughput(QmaxArtifact q) {
    return q.steps().stream()
        .filter(QmaxStep::isUsable)
        .filter(s -> s.achievedRps() != null)
        .mapToDouble(QmaxStep::achievedRps)
        .max()
        .orElse(1);
  }
}
