package dev.speechscale.chain;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.DriftArtifact;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.capacity.Load;
import dev.speechscale.capacity.Scenario;
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.Transport;
import dev.speechscale.report.QuickstartReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One {@code quickstart} run's steps, in order: each runs its chain step, writes the artifact into
 * the run's directory and records the line that reruns it ({@link QuickstartRerun}); progress goes
 * through {@link QuickstartProgress}.
 *
 * @param rerun step name to its rerun line, filled as the steps pass
 */
record QuickstartSteps(
    Platform platform,
    QuickstartRun.Deployments deployments,
    QuickstartRun.Options o,
    NanoClock clocks,
    QuickstartProgress progress,
    Instant started,
    Path dir,
    Map<String, String> rerun) {
  /** The platform the quickstart deploys on. */
  private static final String LOCAL = "local";

  /** The endpoint deployed from {@code configFile}, as the steps' requests name it. */
  Target target(Path configFile) {
    return new Target(o.model(), LOCAL, configFile, o.local().stateDir());
  }

  Path config() {
    return dir.resolve("endpoints.yaml");
  }

  String endpoint() {
    return "speech-" + o.model();
  }

  QuickstartRerun lines() {
    return new QuickstartRerun(o, config());
  }

  QuickstartRun.Result run(Consumer<QuickstartRun.Result> finished) {
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
      PlanArtifact measuredPlan = plan(q, qmaxFile, ttotalFile);
      Path measuredPlanFile = dir.resolve(measuredPlan.defaultFileName());
      QuickstartSearch.Attempt searched = search(q, qmaxFile, t, ttotalFile, measuredPlan);
      QuickstartSearch.Found found = searched.found();
      // the policy the search chose is the one deployed, validated and replayed
      PlanArtifact plan = found != null ? found.plan() : measuredPlan;
      Path planFile = found != null ? found.planFile() : measuredPlanFile;
      Path plannedConfig = deployBehind(plan, planFile);
      ValidateArtifact v = validate(plan, planFile, plannedConfig);
      QuickstartReplay.Outcome replay =
          QuickstartReplay.attempt(
              this,
              new ReplayPrediction.Inputs(
                  q, qmaxFile.toString(), t, ttotalFile.toString(), plan, planFile.toString()),
              planFile,
              plannedConfig);
      progress.step(10, "report");
      Path report = dir.resolve("report.html");
      ArtifactCodec.writeText(
          report,
          QuickstartReport.html(
              new QuickstartReport.Inputs(
                  "SpeechScale quickstart: " + endpoint(),
                  q,
                  QmaxTrust.lines(q),
                  t,
                  measuredPlan,
                  v,
                  drift,
                  rerun,
                  replay.artifact(),
                  replay.notRun(),
                  found != null ? found.view() : null)));
      QuickstartRun.Result result =
          new QuickstartRun.Result(
              q,
              t,
              measuredPlan,
              v,
              replay.artifact(),
              replay.notRun(),
              new QuickstartRun.Output(
                  dir, report, rerun, Duration.between(started, clocks.instant())),
              searched.line());
      finished.accept(result);
      return result;
    } finally {
      if (!o.local().keep()) {
        progress.destroying(endpoint());
        deployments.destroy(endpoint());
      }
    }
  }

  private EndpointConfig deployForMeasurement() {
    progress.step(
        1, "deploy " + endpoint() + " (flite, local.500mcpu, unbounded queue, no scaling yet)");
    ArtifactCodec.writeText(config(), QuickstartConfigs.measurement(o));
    EndpointConfig measured = EndpointConfigFile.read(config()).model(o.model());
    deployments.deploy(measured, config(), null);
    rerun.put("deploy", lines().deploy());
    return measured;
  }

  private DriftArtifact drift(EndpointConfig measured) {
    progress.step(2, "drift: is it deployed as configured?");
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
    rerun.put("drift", lines().drift());
    return drift;
  }

  private QmaxArtifact qmax() {
    progress.step(
        3, "qmax: the concurrency one instance holds inside " + o.slo().toMillis() + " ms");
    LadderSpec ladder =
        LadderSpec.of(
                o.ladder().rungs(),
                o.ladder().hold(),
                o.ladder().window(),
                1,
                (double) o.slo().toMillis())
            .withWarmup(o.ladder().warmup())
            .withStability(o.ladder().stability());
    QmaxRequest request =
        new QmaxRequest(
            target(config()),
            new QmaxRequest.Load(Transport.HTTP_STREAM, null, 1, dir.resolve("qmax-events.jsonl")),
            new QmaxRequest.Ladder(ladder, "quickstart"),
            // the quickstart runs anywhere, root or not: where the instance type's CPU limit
            // cannot be enforced it measures anyway and the artifact says "not enforced"
            // (bin/tts-bench qmax stops instead unless --allow-unenforced-cpu)
            new QmaxRequest.Checks(true, true));
    QmaxArtifact q = QmaxRun.run(platform, request, clocks, progress.ladder(), progress::detail);
    ArtifactCodec.write(dir.resolve(q.defaultFileName()), q);
    progress.qmax(q);
    rerun.put("qmax", "bin/" + request.commandLine());
    return q;
  }

  private TtotalArtifact ttotal(QmaxArtifact q, Path qmaxFile) {
    progress.step(4, "ttotal: a real scale-out, stage by stage");
    TtotalRequest request =
        new TtotalRequest(
            target(config()),
            qmaxFile,
            new TtotalRequest.Probe(Transport.HTTP_STREAM, null, null),
            TtotalRun.Timing.of(o.recoveryWindow(), Duration.ofSeconds(5)),
            1,
            false);
    TtotalArtifact t = TtotalRun.run(platform, request.options(q), clocks, progress::detail);
    ArtifactCodec.write(dir.resolve(t.defaultFileName()), t);
    progress.ttotal(t);
    rerun.put("ttotal", "bin/" + request.commandLine());
    return t;
  }

  private PlanArtifact plan(QmaxArtifact q, Path qmaxFile, Path ttotalFile) {
    progress.step(5, "plan: thresholds, cooldowns and fleet from the two measurements");
    double peakRps = Math.ceil(1.6 * peakThroughput(q));
    Scenario shape = shape(peakRps);
    PlanRun.Result r =
        PlanRun.run(
            PlanRun.Options.measured(
                qmaxFile,
                ttotalFile,
                shape,
                "tts-bench quickstart (plan)",
                Map.of("peak_rps", peakRps)),
            progress::detail,
            clocks.instant());
    PlanArtifact plan = r.artifact();
    Path planFile = dir.resolve(plan.defaultFileName());
    ArtifactCodec.write(planFile, plan);
    progress.plan(plan);
    rerun.put("plan", lines().plan(qmaxFile, ttotalFile, peakRps, planFile));
    if (!plan.hasUnitsConversion() || plan.infeasible()) {
      throw new ChainException(
          "the plan cannot attach scaling (" + plan.verdict().label() + "); see " + planFile);
    }
    return plan;
  }

  /**
   * Searches the policies this fleet's plan can deploy ({@link QuickstartSearch}); a refusal is
   * reported and the measured plan deployed instead.
   */
  private QuickstartSearch.Attempt search(
      QmaxArtifact q, Path qmaxFile, TtotalArtifact t, Path ttotalFile, PlanArtifact plan) {
    progress.step(
        6, "search: the cheapest policy this fleet can deploy that meets the SLO goal (simulated)");
    try {
      QuickstartSearch.Found found =
          QuickstartSearch.run(
              q,
              qmaxFile,
              t,
              ttotalFile,
              plan,
              dir.resolve(plan.defaultFileName()),
              dir,
              clocks.instant(),
              Runtime.getRuntime().availableProcessors(),
              clocks,
              line -> {});
      progress.detail(
          String.format(
              java.util.Locale.ROOT,
              "%d candidates screened in %.1f s; chose %s: %s",
              found.result().tried().size(),
              found.seconds(),
              found.result().recommended(),
              found.result().recommendation().description()));
      rerun.put("search", found.commandLine());
      return new QuickstartSearch.Attempt(found, null);
    } catch (ChainException | dev.speechscale.simulator.SimulatorException e) {
      progress.detail("search not run: " + e.getMessage() + "; deploying the measured plan");
      return new QuickstartSearch.Attempt(null, e.getMessage());
    }
  }

  /** The quickstart's scenario: a 1.25x surge over {@code peakRps}, no trough, one floor. */
  private static Scenario shape(double peakRps) {
    return new Scenario(1, 1.25, new Load.RequestRate(peakRps), null, 1, 0.10, 60, 1, 0);
  }

  private Path deployBehind(PlanArtifact plan, Path planFile) {
    progress.step(
        7,
        "deploy behind the chosen policy (queue_max_depth "
            + plan.queueMaxDepth()
            + ", policies attached)");
    Path plannedConfig = dir.resolve("endpoints-planned.yaml");
    ArtifactCodec.writeText(plannedConfig, QuickstartConfigs.planned(o, plan));
    String scaling =
        deployments.deploy(
            EndpointConfigFile.read(plannedConfig).model(o.model()), plannedConfig, planFile);
    progress.detail(scaling);
    rerun.put("deploy-with-plan", lines().deployBehind(plannedConfig, planFile));
    return plannedConfig;
  }

  private ValidateArtifact validate(PlanArtifact plan, Path planFile, Path plannedConfig) {
    progress.step(8, "validate: the deployed policy is the plan, and it behaves like it (live)");
    ValidateRequest request =
        new ValidateRequest(
            target(plannedConfig),
            planFile,
            true,
            new ValidateRequest.Load(Transport.HTTP_STREAM, o.phase(), null));
    ValidateArtifact v = ValidateRun.run(platform, request.options(plan), clocks, progress::detail);
    ArtifactCodec.write(dir.resolve("validate-" + o.model() + ".json"), v);
    rerun.put("validate", "bin/" + request.commandLine());
    return v;
  }

  /** The highest throughput a usable rung achieved, 1 req/s when none did. */
  private static double peakThroughput(QmaxArtifact q) {
    return q.steps().stream()
        .filter(QmaxStep::isUsable)
        .filter(s -> s.achievedRps() != null)
        .mapToDouble(QmaxStep::achievedRps)
        .max()
        .orElse(1);
  }
}
