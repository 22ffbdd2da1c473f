package dev.speechscale.chain;

import dev.speechscale.artifacts.ArtifactException;
import dev.speechscale.artifacts.FirstByteEvidences;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.PlanSaturation;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.artifacts.ScaleOutColdStart;
import dev.speechscale.artifacts.StartupDelaySamples;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.scaling.ScalingRules;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.HostSpeeds;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.Policy;
import dev.speechscale.simulator.PolicyResult;
import dev.speechscale.simulator.Progress;
import dev.speechscale.simulator.RefusalCost;
import dev.speechscale.simulator.Traffic;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The simulator's side of a replay: the instance from the qmax artifact, the start-up delay from
 * the ttotal artifact, and the policy <em>as deployed</em> on the endpoint (read from the platform,
 * so a prediction is made for the rules the live fleet really runs), with the platform's metric
 * publication delay.
 */
public final class ReplayPrediction {
  /** The server's default {@code MAX_REQUEST_AGE_S}: the first-byte deadline it sheds against. */
  static final Duration DEFAULT_REQUEST_AGE = Duration.ofSeconds(56);

  private ReplayPrediction() {}

  /**
   * The artifacts a prediction is built from.
   *
   * @param qmax the qmax artifact
   * @param qmaxFile its path
   * @param ttotals the ttotal artifacts, one per run (each new instance draws one's start-up delay)
   * @param plan the plan artifact
   * @param planFile its path
   * @param refusalCost what each 503 at queue_max_depth takes of the simulated instance ({@link
   *     RefusalCost#NONE}: nothing, the model as before)
   */
  public record Inputs(
      QmaxArtifact qmax,
      String qmaxFile,
      List<StartupDelaySamples.Input> ttotals,
      PlanArtifact plan,
      String planFile,
      RefusalCost refusalCost) {
    public Inputs {
      ttotals = List.copyOf(ttotals);
      java.util.Objects.requireNonNull(refusalCost, "refusalCost");
    }

    /** With one ttotal artifact and refusals that cost nothing. */
    public Inputs(
        QmaxArtifact qmax,
        String qmaxFile,
        TtotalArtifact ttotal,
        String ttotalFile,
        PlanArtifact plan,
        String planFile) {
      this(
          qmax,
          qmaxFile,
          List.of(new StartupDelaySamples.Input(ttotal, ttotalFile)),
          plan,
          planFile,
          RefusalCost.NONE);
    }

    /**
     * The ladder the instance model is built from: the qmax artifact's, each rung brought to the
     * ladder's median host speed when every usable rung recorded its own ({@link
     * QmaxArtifact#atHostSpeed}), else as measured.
     */
    public QmaxArtifact modelQmax() {
      QmaxArtifact.HostSpeedReference ref = qmax.hostSpeedReference();
      return ref != null && ref.perRung() ? qmax.atHostSpeed(ref.cpuMs()) : qmax;
    }

    /**
     * X_sat: the plan's X(C_scale_max), read again from {@link #modelQmax}'s curve at the plan's
     * C_scale_max when its rungs were brought to one host speed (the plan interpolated the rungs as
     * measured); the ladder's plateau for a plan without it.
     */
    public InstanceModel.Saturation saturation() {
      InstanceModel.Saturation planned = PlanSaturation.of(plan);
      QmaxArtifact.HostSpeedReference ref = qmax.hostSpeedReference();
      if (ref == null
          || !ref.perRung()
          || !(planned instanceof InstanceModel.Saturation.PlanPoint(double c, double x))) {
        return planned;
      }
      return new InstanceModel.Saturation.PlanPoint(
          c, modelQmax().ladder().throughputCurve().at(c).orElse(x));
    }

    /** The ttotal files, comma-separated, for the artifact. */
    public String ttotalFiles() {
      return String.join(", ", ttotals.stream().map(StartupDelaySamples.Input::file).toList());
    }
  }

  /**
   * What the simulation runs.
   *
   * @param model one instance
   * @param policy the deployed policy, as the shared scaling engine runs it
   * @param options SLO, metric delay, seed, pre-roll (the policy's longest alarm window)
   * @param physics the same, for the artifact
   */
  public record Setup(
      InstanceModel model,
      Policy policy,
      FleetSimulator.Options options,
      ReplayArtifact.Physics physics) {}

  /**
   * Builds the simulation of {@code endpoint} as deployed. It pre-rolls the deployed policy's
   * longest alarm window at the trace's first rate: the live fleet sits quiet at its floor before
   * the trace, so its scale-in alarm is already in ALARM when the surge comes
   * (measurements/simulator-calibration.md, cause 1).
   *
   * @param metricDelay the platform's metric publication delay (zero locally)
   * @throws ChainException when no plan policy is deployed, or its alarms are not the plan's shape
   *     (Maximum over 3 periods, Average over 3 periods six times as long: AWS's 10 s and 60 s, or
   *     both compressed by the local platform's time scale)
   */
  public static Setup setup(
      Platform platform, String endpoint, Inputs in, Duration metricDelay, long seed) {
    return setup(platform, endpoint, in, metricDelay, seed, new FleetSimulator.PreRoll.Window());
  }

  /**
   * As {@link #setup(Platform, String, Inputs, Duration, long)} with the pre-roll given: none for
   * an endpoint deployed just before the replay (its alarms have no history either).
   */
  public static Setup setup(
      Platform platform,
      String endpoint,
      Inputs in,
      Duration metricDelay,
      long seed,
      FleetSimulator.PreRoll preRoll) {
    DeployedPolicy deployed =
        DeployedPolicy.read(platform.scalingState(endpoint), endpoint, in.planFile());
    ScalingState.ScalableTarget target = deployed.target();
    ScalingPolicy.TargetTracking tracking = deployed.tracking();
    double timeScale = deployed.timeScale();
    int queue = platform.containerQueueBound(endpoint).orElse(in.plan().queueMaxDepth());
    Duration deadline = requestAge(platform, endpoint);
    StartupDelaySamples startup = startup(in);
    QmaxArtifact qmax = in.modelQmax();
    InstanceModel model =
        InstanceModel.fromMeasurement(
                qmax.measurement(in.qmaxFile()),
                FirstByteEvidences.of(qmax),
                in.saturation(),
                queue,
                deadline,
                startup.delays())
            .withRefusalCost(in.refusalCost())
            .withColdStart(ScaleOutColdStart.of(in.ttotals(), in.qmax(), in.qmaxFile()))
            .withIdleStart(in.qmax().idleStartFactors(in.qmaxFile()));
    ScalingRules rules = deployed.rules();
    Policy policy =
        new Policy.Rules("deployed", timeScale == 1 ? rules : rules.timeScaled(timeScale));
    double slo = in.plan().endpointConfig().ttfabSloMs();
    return new Setup(
        model,
        policy,
        new FleetSimulator.Options(slo, metricDelay, seed, preRoll),
        new ReplayArtifact.Physics(
            metricDelay.toMillis() / 1000.0,
            target.minCapacity(),
            target.maxCapacity(),
            tracking.targetValue(),
            deployed.low().threshold(),
            tracking.scaleOutCooldownSeconds(),
            deployed.step().cooldownSeconds(),
            timeScale,
            startup.delays().meanSeconds(),
            String.format(
                Locale.ROOT,
                "%s; queue_max_depth %d; request deadline %d s; start-up delay %s",
                model.derivation(),
                queue,
                deadline.toSeconds(),
                startup.source()),
            (double) preRoll.seconds(policy, metricDelay)));
  }

  /**
   * {@code setup} with X_sat from {@code saturation} instead of the plan's point: the instance
   * rebuilt from the same measurement, gate, deadline, start-up delays, refusal cost and cold
   * start.
   */
  static Setup withSaturation(Setup setup, Inputs in, InstanceModel.Saturation saturation) {
    InstanceModel old = setup.model();
    QmaxArtifact qmax = in.modelQmax();
    InstanceModel model =
        InstanceModel.fromMeasurement(
                qmax.measurement(in.qmaxFile()),
                FirstByteEvidences.of(qmax),
                saturation,
                old.queueMaxDepth(),
                old.requestDeadline(),
                old.startupDelays())
            .withRefusalCost(in.refusalCost())
            .withColdStart(ScaleOutColdStart.of(in.ttotals(), in.qmax(), in.qmaxFile()))
            .withIdleStart(in.qmax().idleStartFactors(in.qmaxFile()));
    ReplayArtifact.Physics p = setup.physics();
    // the physics line is the derivation followed by the gate, deadline and start-up delay
    String rest =
        p.instanceModel().startsWith(old.derivation())
            ? p.instanceModel().substring(old.derivation().length())
            : "";
    return new Setup(
        model, setup.policy(), setup.options(), p.with(model.derivation() + rest, p.preRollS()));
  }

  /** {@code setup} starting from {@code preRoll} instead of its own. */
  static Setup withPreRoll(Setup setup, FleetSimulator.PreRoll preRoll) {
    FleetSimulator.Options o = setup.options();
    ReplayArtifact.Physics p = setup.physics();
    return new Setup(
        setup.model(),
        setup.policy(),
        o.withPreRoll(preRoll),
        p.with(
            p.instanceModel(),
            (double) preRoll.seconds(setup.policy(), o.metricPublicationDelay())));
  }

  /**
   * {@code setup} whose initial instance has served {@code requests} before the trace: deployed for
   * the replay (and warmed for it, when the replay warms it), it goes on along the model's cold
   * start from there rather than starting warm. On the local fleet the replays' one instance, 20 s
   * warm, served the surge 0–14 % slower than the model gave it (runs m–s), the shed's low lean
   * (measurements/simulator-calibration.md, "The replay's own instance is fresh").
   */
  static Setup withInitialServed(Setup setup, long requests) {
    ReplayArtifact.Physics p = setup.physics();
    double factor = setup.model().coldStart().factor(requests);
    String how =
        requests == 0
            ? String.format(
                Locale.ROOT,
                "; the initial instance, deployed for the replay and not warmed by it, starts that"
                    + " cold start from its first request (x%.2f)",
                factor)
            : String.format(
                Locale.ROOT,
                "; the initial instance, deployed for the replay, served %d requests in its"
                    + " warm-up and goes on along that cold start from there (x%.2f at its request"
                    + " %d)",
                requests,
                factor,
                requests);
    return new Setup(
        setup.model(),
        setup.policy(),
        setup.options().withInitialServed(requests),
        p.with(p.instanceModel() + how, p.preRollS()));
  }

  /**
   * {@code setup} whose initial instances had long been serving before the replay (an endpoint not
   * deployed for it): as warm as qmax's ladder instance, and the physics says so.
   */
  static Setup asWarm(Setup setup) {
    ReplayArtifact.Physics p = setup.physics();
    return new Setup(
        setup.model(),
        setup.policy(),
        setup.options().withInitialServed(FleetSimulator.Options.INITIAL_WARM),
        p.with(
            p.instanceModel()
                + "; the initial instance, in service before the replay (--initial-instances"
                + " warm), serves as warm as qmax's ladder instance",
            p.preRollS()));
  }

  /** {@code setup} with its instances slowed as their hosts were ({@link HostSpeeds#NONE}: not). */
  static Setup withHostSpeeds(Setup setup, HostSpeeds speeds) {
    return new Setup(
        setup.model(), setup.policy(), setup.options().withHostSpeeds(speeds), setup.physics());
  }

  /** Simulates the deployed policy over {@code traffic}. */
  public static PolicyResult predict(Setup setup, Traffic traffic) {
    return FleetSimulator.run(
        setup.model(), traffic, setup.policy(), setup.options(), Progress.none());
  }

  /** Every start-up delay the ttotal artifacts hold. */
  private static StartupDelaySamples startup(Inputs in) {
    try {
      return StartupDelaySamples.of(in.ttotals());
    } catch (ArtifactException e) {
      throw ChainException.wrapping(e);
    }
  }

  /** MAX_REQUEST_AGE_S from the deployed container environment, else the server's default. */
  private static Duration requestAge(Platform platform, String endpoint) {
    String v = platform.fingerprint(endpoint).containerEnv().get("MAX_REQUEST_AGE_S");
    if (v == null) {
      return DEFAULT_REQUEST_AGE;
    }
    try {
      return Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000));
    } catch (NumberFormatException e) {
      throw new ChainException(
          endpoint + ": MAX_REQUEST_AGE_S (" + v + ") in the container environment is no number",
          e);
    }
  }
}
