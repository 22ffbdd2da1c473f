package dev.speechscale.chain;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.loadgen.LadderListener;
import dev.speechscale.loadgen.StabilityRule;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import java.io.PrintWriter;
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
import org.jspecify.annotations.Nullable;

/**
 * {@code quickstart} as a composition of the chain's steps: deploy a measurement endpoint, drift →
 * qmax → ttotal → plan → search (the cheapest policy that meets the goal on a short trace at this
 * fleet's scale, {@link QuickstartSearch}) → deploy behind the chosen policy → validate (live) →
 * replay (a 90 s calibration trace, the simulator's prediction against the live fleet) → report,
 * each artifact written into one directory with the command line that reruns its step, and the
 * endpoint destroyed at the end unless kept. Deployment goes through {@link Deployments}, so the
 * chain stays free of any one platform's deployer.
 *
 * <p>This class is the API; the steps are {@link QuickstartSteps} (the replay {@link
 * QuickstartReplay}), their rerun lines {@link QuickstartRerun}, the configs they write {@link
 * QuickstartConfigs}, what they print {@link QuickstartProgress}, and the report comes from the
 * {@code report} module.
 */
public final class QuickstartRun {
  private QuickstartRun() {}

  /** Deploys and destroys the endpoint for the composition. */
  public interface Deployments {
    /**
     * Deploys (or replaces) the model from the config file, behind the plan when given, and returns
     * once it is in service.
     *
     * @return the sentence saying whether scaling was attached and why
     */
    String deploy(EndpointConfig model, Path configFile, @Nullable Path planFile);

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
   * @param ladder how qmax's ladder runs
   * @param recoveryWindow ttotal recovery window
   * @param phase validate live phase length
   * @param local the local endpoint and its rerun lines
   */
  public record Options(
      String model,
      @Nullable Path outputDir,
      Duration slo,
      Ladder ladder,
      Duration recoveryWindow,
      Duration phase,
      Local local) {}

  /**
   * How qmax's ladder runs in the quickstart.
   *
   * @param rungs qmax coarse rungs
   * @param hold qmax rung hold
   * @param window qmax window
   * @param warmup qmax warm-up, not measured
   * @param stability how each qmax rung is held until its windows agree; {@code null} for {@link
   *     StabilityRule#defaultsFor} the hold and window
   */
  public record Ladder(
      List<Integer> rungs,
      Duration hold,
      Duration window,
      Duration warmup,
      StabilityRule stability) {
    public Ladder {
      rungs = List.copyOf(rungs);
      stability = stability == null ? StabilityRule.defaultsFor(hold, window) : stability;
    }
  }

  /**
   * The local endpoint the quickstart deploys and how its rerun lines name it.
   *
   * @param stateDir the local control state the rerun lines name, or {@code null} for the default
   * @param keep leave the endpoint running at the end
   * @param awsPhysics SageMaker's physics on the local endpoint ({@code local.aws_physics} in both
   *     configs it writes), {@link EndpointConfig.AwsPhysics#OFF} for none
   */
  public record Local(@Nullable Path stateDir, boolean keep, EndpointConfig.AwsPhysics awsPhysics) {
    /** The default state folder, the endpoint destroyed at the end, no AWS physics. */
    public static final Local DEFAULT = new Local(null, false, EndpointConfig.AwsPhysics.OFF);

    public Local {
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
   * @param replay the replay artifact, or {@code null} when the replay did not run
   * @param replayNotRun why the replay did not run, or {@code null} when it ran
   * @param output where the run wrote, how to rerun it and how long it took
   * @param search one line on the policy the search chose on this fleet (deployed, validated and
   *     replayed), or why the search did not run; {@code null} for a run without the step
   */
  public record Result(
      QmaxArtifact qmax,
      TtotalArtifact ttotal,
      PlanArtifact plan,
      ValidateArtifact validate,
      @Nullable ReplayArtifact replay,
      @Nullable String replayNotRun,
      Output output,
      @Nullable String search) {

    /** Every trust flag the run raised, one line each ({@link QuickstartFlags}). */
    public List<String> trustFlags() {
      return QuickstartFlags.lines(qmax, replay, replayNotRun);
    }
  }

  /**
   * Where a quickstart wrote and how to rerun it.
   *
   * @param dir where everything was written
   * @param report the HTML report
   * @param rerun step name → the command line that reruns it, in order
   * @param took how long the run took
   */
  public record Output(Path dir, Path report, Map<String, String> rerun, Duration took) {
    public Output {
      rerun = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(rerun));
    }
  }

  /**
   * Runs every step; progress goes to {@code err} ({@code [n/10] step} lines, indented details).
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
      NanoClock clocks,
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
    return new QuickstartSteps(
            platform,
            deployments,
            o,
            clocks,
            new QuickstartProgress(err, qmaxProgress),
            started,
            dir,
            new LinkedHashMap<>())
        .run(finished);
  }
}
