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
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.HostSpeedProbe;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.Transport;
import java.nio.file.Path;
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
   * What to run.
   *
   * @param model the model; the endpoint is speech-&lt;model&gt;
   * @param transport how requests reach the endpoint
   * @param spec the ladder
   * @param texts the text pool
   * @param seed the pool's shuffle seed
   * @param events a JSONL file for every request, or {@code null}
   * @param settleTimeout how long pinning capacity may take, or {@code null} to derive it from the
   *     platform ({@link Timeouts#settle(dev.speechscale.platform.Physics)})
   * @param command the command line, for provenance
   * @param parameters the effective parameters, for provenance
   * @param idleRung whether the open-loop idle-start rung follows the ladder ({@link IdleRung})
   */
  public record Options(
      String model,
      Transport transport,
      LadderSpec spec,
      List<String> texts,
      long seed,
      @Nullable Path events,
      @Nullable Duration settleTimeout,
      String command,
      Map<String, Object> parameters,
      boolean idleRung) {}

  /**
   * How long the idle-start rung after a ladder with measurement window {@code window} and best
   * throughput {@code peakRps} runs.
   */
  public static Duration idleRungLength(Duration window, double peakRps) {
    return IdleRung.length(window, peakRps);
  }

  /**
   * Measures and returns the artifact (derived values recomputed); does not write it. Stops when
   * the instance type's CPU limit is not in force.
   */
  public static QmaxArtifact run(
      Platform platform,
      Options o,
      ChainClock clocks,
      LadderListener listener,
      Consumer<String> notes) {
    return run(platform, o, false, clocks, listener, notes);
  }

  /**
   * Measures and returns the artifact (derived values recomputed); does not write it.
   *
   * @param allowUnenforcedCpu measure even when the instance type's CPU limit is not in force, and
   *     record it as not enforced
   */
  public static QmaxArtifact run(
      Platform platform,
      Options o,
      boolean allowUnenforcedCpu,
      ChainClock clocks,
      LadderListener listener,
      Consumer<String> notes) {
    Clock clock = clocks.wall();
    String endpoint = "speech-" + o.model();
    RetryingPlatform control = RetryingPlatform.of(platform, clock);
    Instant began = clock.instant();
    requireInService(control, endpoint, o.model());
    Fingerprint fp = control.fingerprint(endpoint);
    OptionalInt bound = requireUnboundedQueue(control, endpoint);
    EnforcedCpu cpu =
        CpuLimitCheck.requireEnforced(control, endpoint, o.model(), allowUnenforcedCpu, notes);
    RungNoise noise = new RungNoise(clock);
    Map<String, Object> parameters = new LinkedHashMap<>(o.parameters());
    WarmupRecorder warm = new WarmupRecorder();
    Measured measured =
        measure(
            control,
            endpoint,
            o,
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
                            host.startEpochMs() + o.spec().warmup().toMillis()))
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
                clock.instant(), Provenance.capture(o.command(), parameters).withCpuLimit(cpu)),
            new QmaxArtifact.Target(
                o.model(),
                endpoint,
                o.transport().label(),
                o.spec().sloMs(),
                new DeployedConfig(fp.instanceType(), fp.imageDigest(), fp.containerEnv())),
            new QmaxArtifact.Conditions(
                control.name(),
                o.spec().runs(),
                o.spec().hold().toMillis() / 1000.0,
                o.spec().window().toMillis() / 1000.0,
                bound.isPresent() ? Boolean.TRUE : null),
            steps)
        .withRungChecks(noise.checks(steps, cpu))
        .withDrift(result.drift())
        .withWarmupRamp(ramp)
        .withHostSpeed(measured.hostSpeed())
        .withIdleStart(measured.idle());
  }

  private static void requireInService(Platform platform, String endpoint, String model) {
    EndpointDescription d = platform.describe(endpoint);
    if (d.status() != EndpointStatus.IN_SERVICE) {
      throw new ChainException(
          endpoint
              + " is "
              + d.status()
              + ", not InService; deploy it and"
              + " wait, or check `speech-infra status --model "
              + model
              + "`");
    }
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
      Options o,
      ChainClock clocks,
      LadderListener listener,
      RungNoise noise,
      RequestListener warmup,
      Consumer<String> notes,
      Map<String, Object> parameters) {
    Clock clock = clocks.wall();
    Duration settle =
        o.settleTimeout() != null ? o.settleTimeout() : Timeouts.settle(control.physics(endpoint));
    try (Freeze freeze = Freeze.pin(control, endpoint, 1, settle, clock, notes);
        Invoker invoker = control.invoker(endpoint, o.transport());
        HostSpeedProbe probe = HostSpeedLogs.start(control, endpoint, notes).orElse(null);
        JsonlEventLog events =
            o.events() == null ? null : JsonlEventLog.open(o.events(), clocks.monotonic(), clock)) {
      LadderHooks hooks =
          LadderHooks.defaults()
              .withClocks(clocks.monotonic(), clock)
              .withCapacity(() -> control.describe(endpoint).currentInstances())
              .withListener(listener)
              .withRequests(noise.alongside(events == null ? RequestListener.NONE : events))
              .withWarmupRequests(warmup)
              .withHostSpeed(probe == null ? null : HostSpeedLogs.change(probe));
      Instant probed = clock.instant();
      LadderResult result = runLadder(invoker, o, hooks);
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
      parameters.put("idle_rung", o.idleRung());
      IdleStartRung idle =
          !o.idleRung()
              ? null
              : IdleRung.run(
                  invoker,
                  TextPool.shuffled(o.texts(), o.seed()),
                  clocks.monotonic(),
                  events == null ? RequestListener.NONE : events,
                  result.steps(),
                  o.spec().window(),
                  o.seed(),
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
  private static LadderResult runLadder(Invoker invoker, Options o, LadderHooks hooks) {
    LadderRunner runner = new LadderRunner(invoker, TextPool.shuffled(o.texts(), o.seed()), hooks);
    Thread stopper = new Thread(runner::stop, "stop-ladder");
    Runtime.getRuntime().addShutdownHook(stopper);
    try {
      return runner.run(o.spec());
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
