package dev.speechscale.cli;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.chain.Flags;
import dev.speechscale.chain.QuickstartRun;
import dev.speechscale.loadgen.ProgressPrinter;
import dev.speechscale.loadgen.StabilityRule;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.local.LocalDeployer;
import dev.speechscale.platform.local.LocalPlatform;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tts-bench quickstart}: the product's main job on a fresh machine. Deploys a local endpoint
 * with the default engine, runs drift → qmax → ttotal → plan → search →
 * deploy-with-the-chosen-policy → validate → replay, writes every artifact and a self-contained
 * HTML report, prints a short summary with the command that reruns each step, and destroys the
 * endpoint. Option help: {@code flags.properties}.
 */
@Command(
    name = "quickstart",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Deploy a local flite endpoint, measure it (drift, qmax, ttotal), derive its plan, search"
          + " the policies it can deploy for the cheapest that meets the SLO goal (simulated),"
          + " redeploy behind the chosen one, validate it live, replay it live beside the"
          + " simulator, write the"
          + " artifacts and report.html, and destroy the endpoint. About 9–11 minutes on a quiet"
          + " 2-core machine (qmax's stability windows are about 2 of them, 4 at most)."
    })
final class QuickstartCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = Flags.OUTPUT_DIR, paramLabel = "DIR")
  @Nullable Path outputDir;

  @Option(names = Flags.MODEL, defaultValue = "quickstart")
  String model;

  @Option(names = Flags.SLO, defaultValue = "1000ms", paramLabel = "DURATION")
  Duration slo;

  @Option(names = Flags.RUNGS, split = ",", defaultValue = "1,2,4,8,16,32")
  List<Integer> rungs;

  @Option(names = Flags.HOLD, defaultValue = "8s")
  Duration hold;

  @Option(names = Flags.WINDOW, defaultValue = "5s")
  Duration window;

  @Mixin StabilityOptions stability;

  @Option(names = Flags.WARMUP, defaultValue = "20s")
  Duration warmup;

  @Option(names = Flags.RECOVERY_WINDOW, defaultValue = "15s")
  Duration recoveryWindow;

  @Option(names = Flags.PHASE, defaultValue = "8s")
  Duration phase;

  @Option(names = Flags.STATE_DIR, paramLabel = "DIR")
  @Nullable Path stateDir;

  @Option(names = Flags.KEEP)
  boolean keep;

  @Option(names = Flags.AWS_PHYSICS)
  boolean awsPhysics;

  /** What {@code --aws-physics} turns on (issue 13's figures). */
  static final EndpointConfig.AwsPhysics AWS_PHYSICS = new EndpointConfig.AwsPhysics(60, 5, 60);

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    StabilityRule stabilityRule = stability.rule(spec, hold, window);
    Path root = stateDir != null ? stateDir : LocalPlatform.defaultRoot();
    LocalDeployer deployer = new LocalDeployer(root, line -> err.println("  " + line));
    QuickstartRun.Deployments deployments =
        new QuickstartRun.Deployments() {
          @Override
          public String deploy(EndpointConfig m, Path configFile, @Nullable Path planFile) {
            return deployer.deploy(m, configFile, planFile).scalingReason();
          }

          @Override
          public void destroy(String endpoint) {
            deployer.destroy(endpoint);
          }
        };
    QuickstartRun.Result r;
    try (Platform platform = new LocalPlatform(root)) {
      r =
          QuickstartRun.run(
              platform,
              deployments,
              new QuickstartRun.Options(
                  model,
                  outputDir,
                  slo,
                  new QuickstartRun.Ladder(rungs, hold, window, warmup, stabilityRule),
                  recoveryWindow,
                  phase,
                  new QuickstartRun.Local(
                      stateDir, keep, awsPhysics ? AWS_PHYSICS : EndpointConfig.AwsPhysics.OFF)),
              NanoClock.SYSTEM,
              new ProgressPrinter(WriterOutputStream.printStream(err), slo.toMillis()),
              err,
              this::summary);
    }
    return r.validate().verdict().failed() ? 1 : 0;
  }

  private void summary(QuickstartRun.Result r) {
    summary(r, spec.commandLine().getOut());
  }

  /** The closing summary: the four numbers, the verdicts, every trust flag, where things are. */
  static void summary(QuickstartRun.Result r, PrintWriter out) {
    QmaxArtifact q = r.qmax();
    TtotalArtifact t = r.ttotal();
    PlanArtifact p = r.plan();
    ValidateArtifact v = r.validate();
    Path dir = r.output().dir();
    Path report = r.output().report();
    Map<String, String> rerun = r.output().rerun();
    Duration took = r.output().took();
    out.printf(Locale.ROOT, "%nquickstart finished in %s%n", Durations.wallClock(took));
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
    if (r.search() != null) {
      out.printf(Locale.ROOT, "  search       %s%n", r.search());
    }
    out.printf(Locale.ROOT, "  validate     %s%n", v.verdict().label());
    List<String> flags = r.trustFlags();
    out.printf(
        Locale.ROOT,
        "  trust        %s%n",
        flags.isEmpty() ? "no flag raised" : flags.size() + " flag(s), one per line:");
    flags.forEach(f -> out.printf(Locale.ROOT, "    %s%n", f));
    out.printf(Locale.ROOT, "  artifacts    %s%n", dir);
    out.printf(Locale.ROOT, "  report       %s%n", report);
    out.println("rerun any step on its own:");
    rerun.forEach((k, c) -> out.printf(Locale.ROOT, "  %-17s %s%n", k, c));
  }
}
