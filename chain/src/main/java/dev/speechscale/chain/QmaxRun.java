package dev.speechscale.chain;

import dev.speechscale.artifacts.Artifact;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.EnforcedCpu;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ToolVersion;
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
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Consumer;

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
   */
  public record Options(
      String model,
      Transport transport,
      LadderSpec spec,
      List<String> texts,
      long seed,
      Path events,
      Duration settleTimeout,
      String command,
      Map<String, Object> parameters) {}

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
    platform = control; // every control-plane call backs off on throttling
    Instant began = clock.instant();
    EndpointDescription d = platform.describe(endpoint);
    if (d.status() != EndpointStatus.IN_SERVICE) {
      throw new ChainException(
          endpoint
              + " is "
              + d.status()
              + ", not InService; deploy it and"
              + " wait, or check `speech-infra status --model "
              + o.model()
              + "`");
    }
    Fingerprint fp = platform.fingerprint(endpoint);
    OptionalInt bound = platform.containerQueueBound(endpoint);
    if (bound.isPresent() && bound.getAsInt() > 0) {
      throw new ChainException(
          endpoint
              + "'s container queue is bounded (MAX_QUEUE_DEPTH="
              + bound.getAsInt()
              + "): Q_max would measure the gate, not the instance. Redeploy with"
              + " queue_max_depth: 0 for the measurement, then deploy the plan's queue_max_depth");
    }
    EnforcedCpu cpu =
        CpuLimitCheck.requireEnforced(platform, endpoint, o.model(), allowUnenforcedCpu, notes);
    RungNoise noise = new RungNoise(clock);
    LadderResult result;
    Duration settle =
        o.settleTimeout() != null ? o.settleTimeout() : Timeouts.settle(platform.physics(endpoint));
    Map<String, Object> parameters = new LinkedHashMap<>(o.parameters());
    try (Freeze freeze = Freeze.pin(platform, endpoint, 1, settle, clock, notes);
        Invoker invoker = platform.invoker(endpoint, o.transport());
        JsonlEventLog events =
            o.events() == null ? null : JsonlEventLog.open(o.events(), clocks.monotonic(), clock)) {
      LadderHooks hooks =
          LadderHooks.defaults()
              .withClocks(clocks.monotonic(), clock)
              .withCapacity(() -> control.describe(endpoint).currentInstances())
              .withListener(noise.alongside(listener))
              .withRequests(noise.alongside(events == null ? RequestListener.NONE : events));
      LadderRunner runner =
          new LadderRunner(invoker, TextPool.shuffled(o.texts(), o.seed()), hooks);
      Thread stopper = new Thread(runner::stop, "stop-ladder");
      Runtime.getRuntime().addShutdownHook(stopper);
      try {
        result = runner.run(o.spec());
      } finally {
        removeHook(stopper);
      }
      ServerConcurrency.Join join = new ServerConcurrency(control, endpoint).join(result);
      result = join.result();
      notes.accept("server concurrency: " + join.outcome());
      parameters.put("server_concurrency_join", join.outcome());
      // the ladder's notes already reached the listener as they happened
    }
    notes.accept(ControlCalls.summary(control, began, endpoint));
    parameters.put("control_plane_calls", ControlCalls.summary(control, began, endpoint));
    return new QmaxArtifact(
            Artifact.SCHEMA_VERSION,
            ArtifactKind.QMAX.label(),
            ToolVersion.current(),
            clock.instant(),
            Provenance.capture(o.command(), parameters).withCpuLimit(cpu),
            o.model(),
            endpoint,
            o.transport().label(),
            o.spec().sloMs(),
            new DeployedConfig(fp.instanceType(), fp.imageDigest(), fp.containerEnv()),
            o.spec().runs(),
            o.spec().hold().toMillis() / 1000.0,
            o.spec().window().toMillis() / 1000.0,
            true,
            bound.isPresent() ? Boolean.TRUE : null,
            null,
            null,
            null,
            null,
            null,
            null,
            "closed-loop",
            platform.name(),
            result.steps(),
            null,
            null,
            null)
        .withRungChecks(noise.checks(result.steps(), cpu))
        .withDrift(result.drift());
  }

  static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the JVM is exiting and the hook has run
    }
  }
}
