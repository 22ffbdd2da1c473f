package dev.speechscale.chain;

import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.EnforcedCpu;
import dev.speechscale.artifacts.HostSpeedLog;
import dev.speechscale.artifacts.IdleStartRung;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.Stamp;
import dev.speechscale.artifacts.WarmupRamp;
import dev.speechscale.loadgen.JsonlEventLog;
import dev.speechscale.loadgen.LadderHooks;
import dev.speechscale.loadgen.LadderListener;
import dev.speechscale.loadgen.LadderResult;
import dev.speechscale.loadgen.LadderRunner;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.HostSpeedProbe;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.RetryingPlatform;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * {@code qmax}: the most concurrent requests one instance holds inside the SLO. Preflight (in
 * service, fingerprint, an unbounded container queue), freeze (scaling suspended, capacity pinned
 * to 1, verified), a closed-loop ladder with bisection to ±1, the reference rung re-measured for
 * drift, the server's concurrency joined per rung, the freeze restored on every exit path, and the
 * artifact.
 */
public final class QmaxRun {
  private QmaxRun() {}

  /**
   * How long the idle-start rung after a ladder with measurement window {@code window} and best
   * throughput {@code peakRps} runs.
   */
  public static Duration idleRungLength(Duration window, double peakRps) {
    return IdleRung.length(window, peakRps);
  }

  /**
   * Measures and returns the artifact (derived values recomputed); does not write it. Stops when
   * the instance type's CPU limit is not in force, unless the request allows it.
   */
  public static QmaxArtifact run(
      Platform platform,
      QmaxRequest r,
      NanoClock clocks,
      LadderListener listener,
      Consumer<String> notes) {
    List<String> texts = Texts.load(r.load().texts()); // a bad file before the endpoint is touched
    Clock clock = clocks.wall();
    String endpoint = r.target().endpoint();
    RetryingPlatform control = RetryingPlatform.of(platform, clock);
    Instant began = clock.instant();
    requireInService(control, endpoint, r.target().model());
    Fingerprint fp = control.fingerprint(endpoint);
    OptionalInt bound = requireUnboundedQueue(control, endpoint);
    EnforcedCpu cpu =
        CpuLimitCheck.requireEnforced(
            control, endpoint, r.target().model(), r.checks().allowUnenforcedCpu(), notes);
    RungNoise noise = new RungNoise(clock);
    Map<String, Object> parameters = new LinkedHashMap<>(r.parameters());
    WarmupRecorder warm = new WarmupRecorder();
    Measured measured =
        measure(
            control,
            endpoint,
            r,
            texts,
            clocks,
            noise.alongside(listener),
            noise,
            warm,
            notes,
            parameters);
    LadderResult result = measured.result();
    List<QmaxStep> steps = measured.steps();
    WarmupRamp warmup = warm.ramp();
    HostSpeedLog host = measured.hostSpeed();
    WarmupRamp ramp =
        warmup == null
            ? null
            : warmup
                .withHostCpuMs(
                    host == null
                        ? null
                        : host.inServiceMean(
                            host.startEpochMs(),
                            host.startEpochMs() + r.ladder().spec().warmup().toMillis()))
                .withLadderReference(steps);
    if (ramp != null) {
      notes.accept(
          String.format(
                  Locale.ROOT,
                  "warm-up: reference %.1f ms (%s); ",
                  ramp.referenceServiceMs(),
                  ramp.referenceSource())
              + ramp.coldStart("qmax warm-up").describe());
    }
    notes.accept(ControlCalls.summary(control, began, endpoint));
    parameters.put("control_plane_calls", ControlCalls.summary(control, began, endpoint));
    return QmaxArtifact.of(
            Stamp.current(
                clock.instant(), Provenance.capture(r.commandLine(), parameters).withCpuLimit(cpu)),
            new QmaxArtifact.Target(
                r.target().model(),
                endpoint,
                r.load().transport().label(),
                r.ladder().spec().sloMs(),
                new DeployedConfig(fp.instanceType(), fp.imageDigest(), fp.containerEnv())),
            new QmaxArtifact.Conditions(
                control.name(),
                r.ladder().spec().runs(),
                r.ladder().spec().hold().toMillis() / 1000.0,
                r.ladder().spec().window().toMillis() / 1000.0,
                bound.isPresent() ? Boolean.TRUE : null),
            steps)
        .withRungChecks(noise.checks(steps, cpu))
        .withDrift(result.drift())
        .withWarmupRamp(ramp)
        .withHostSpeed(measured.hostSpeed())
        .withIdleStart(measured.idle());
  }

  private static void requireInService(Platform platform, String endpoint, String model) {
    InService.require(
        platform,
        endpoint,
        ", not InService; deploy it and wait, or check `speech-infra status --model "
            + model
            + "`");
  }

  /** The container's queue bound, refused unless it is absent or off. */
  private static OptionalInt requireUnboundedQueue(Platform platform, String endpoint) {
    OptionalInt bound = platform.containerQueueBound(endpoint);
    if (bound.isPresent() && bound.getAsInt() > 0) {
      throw new ChainException(
          endpoint
              + "'s container queue is bounded (MAX_QUEUE_DEPTH="
              + bound.getAsInt()
              + "): Q_max would measure the gate, not the instance. Redeploy with"
              + " queue_max_depth: 0 for the measurement, then deploy the plan's queue_max_depth");
    }
    return bound;
  }

  /**
   * Freezes the endpoint at one instance, runs the ladder and joins the server's concurrency to its
   * rungs; the freeze is restored however it ends. Records the join's outcome in {@code
   * parameters}.
   */
  private static Measured measure(
      RetryingPlatform control,
      String endpoint,
      QmaxRequest r,
      List<String> texts,
      NanoClock clocks,
      LadderListener listener,
      RungNoise noise,
      RequestListener warmup,
      Consumer<String> notes,
      Map<String, Object> parameters) {
    Clock clock = clocks.wall();
    Duration settle =
        r.checks().settleTimeout().equals(QmaxRequest.Checks.PLATFORM_SETTLE)
            ? Timeouts.settle(control.physics(endpoint))
            : r.checks().settleTimeout();
    try (Freeze freeze = Freeze.pin(control, endpoint, 1, settle, clock, notes);
        Invoker invoker = control.invoker(endpoint, r.load().transport());
        HostSpeedProbe probe = HostSpeedLogs.start(control, endpoint, notes).orElse(null);
        JsonlEventLog events =
            r.load().events() == null
                ? null
                : JsonlEventLog.open(r.load().events(), clocks, clock)) {
      LadderHooks hooks =
          LadderHooks.defaults()
              .withClocks(clocks, clock)
              .withCapacity(() -> control.describe(endpoint).currentInstances())
              .withListener(listener)
              .withRequests(noise.alongside(events == null ? RequestListener.NONE : events))
              .withWarmupRequests(warmup)
              .withHostSpeed(probe == null ? null : HostSpeedLogs.change(probe));
      Instant probed = clock.instant();
      LadderResult result = runLadder(invoker, r, texts, hooks);
      HostSpeedLog host = null;
      if (probe != null) {
        host =
            HostSpeedLogs.log(
                probe, probed, (int) Duration.between(probed, clock.instant()).toSeconds());
        notes.accept("host speed over the ladder: " + host.summary(null));
      }
      ServerConcurrency.Join join = new ServerConcurrency(control, endpoint).join(result);
      notes.accept("server concurrency: " + join.outcome());
      parameters.put("server_concurrency_join", join.outcome());
      parameters.put("idle_rung", r.checks().idleRung());
      IdleStartRung idle =
          !r.checks().idleRung()
              ? null
              : IdleRung.run(
                  invoker,
                  TextPool.shuffled(texts, r.load().seed()),
                  clocks,
                  events == null ? RequestListener.NONE : events,
                  result.steps(),
                  r.ladder().spec().window(),
                  r.load().seed(),
                  notes);
      // the ladder's notes already reached the listener as they happened
      return new Measured(join.result(), host, idle);
    }
  }

  /**
   * The ladder's result, its host's speed over it ({@code null} when nothing probed it) and the
   * open-loop rung below saturation ({@code null} when the ladder gave no throughput).
   */
  private record Measured(
      LadderResult result, @Nullable HostSpeedLog hostSpeed, @Nullable IdleStartRung idle) {
    /** The ladder's steps, each with its host's speed over its rung when the host was probed. */
    List<QmaxStep> steps() {
      return hostSpeed == null
          ? result.steps()
          : RungHostSpeeds.of(result.steps(), result.reports(), hostSpeed);
    }
  }

  /** Runs the ladder, stopped cleanly if the JVM is asked to exit meanwhile. */
  private static LadderResult runLadder(
      Invoker invoker, QmaxRequest r, List<String> texts, LadderHooks hooks) {
    LadderRunner runner =
        new LadderRunner(invoker, TextPool.shuffled(texts, r.load().seed()), hooks);
    Thread stopper = new Thread(runner::stop, "stop-ladder");
    Runtime.getRuntime().addShutdownHook(stopper);
    try {
      return runner.run(r.ladder().spec());
    } finally {
      removeHook(stopper);
    }
  }

  static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the JVM is exiting and the hook has run
    }
  }
}
