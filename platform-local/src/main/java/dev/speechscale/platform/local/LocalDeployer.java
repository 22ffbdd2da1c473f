package dev.speechscale.platform.local;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.ScalingGate;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.RetryingPlatform;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * {@code speech-infra deploy|destroy|status} on the local platform. Deploy validates everything
 * before it starts anything, decides scaling with the {@link ScalingGate}, starts the supervisor in
 * its own session (so Ctrl-C on the caller does not reach it) and returns once the endpoint is
 * InService; destroy leaves no process behind; status reports a dead supervisor and stops its
 * orphaned instances.
 */
public final class LocalDeployer {
  /** speech-server flags an {@code engine_settings} key may name. */
  static final Set<String> ENGINE_SETTINGS = EndpointConfig.SERVER_SETTINGS;

  private final ControlClient control;
  private final RetryingPlatform retrying;
  private final ServerBuild build;
  private final Clock clock;
  private final Consumer<String> progress;

  /**
   * A deployer.
   *
   * @param root the state directory root
   * @param progress where progress lines go (stderr in the CLI)
   */
  public LocalDeployer(Path root, Consumer<String> progress) {
    this(root, ServerBuild.current(), Clock.systemUTC(), progress);
  }

  LocalDeployer(Path root, ServerBuild build, Clock clock, Consumer<String> progress) {
    this.control = new ControlClient(root);
    this.retrying = RetryingPlatform.of(new LocalPlatform(root), clock);
    this.build = build;
    this.clock = clock;
    this.progress = progress;
  }

  /**
   * The deployment's fingerprint: instance type, the digest of the server build and engine
   * settings, and the container environment.
   */
  public DeployedConfig fingerprint(EndpointConfig config) {
    return new DeployedConfig(config.instanceType(), build.digest(config), config.containerEnv());
  }

  /**
   * What deploy did.
   *
   * @param endpoint the endpoint name
   * @param routerUrl the container-compatible front ({@code POST /invocations})
   * @param runtimeUrl the SageMaker Runtime API's base for an SDK endpoint override
   * @param scalingAttached whether policies are attached
   * @param scalingReason the gate's reason
   * @param instances in-service instances
   * @param stateDir where its control state and logs live
   * @param took how long deploy took
   */
  public record Deployed(
      String endpoint,
      String routerUrl,
      String runtimeUrl,
      boolean scalingAttached,
      String scalingReason,
      int instances,
      Path stateDir,
      Duration took) {}

  /**
   * Deploys (or replaces) the endpoint of {@code config}.
   *
   * @param config the model's endpoint config
   * @param configFile where it came from, for the record
   * @param planFile the plan to gate scaling on, or {@code null} for {@code plan-<model>.json}
   *     beside the config file
   * @throws PlatformException when the config cannot run locally or the endpoint does not come into
   *     service (nothing is left running then)
   */
  public Deployed deploy(EndpointConfig config, Path configFile, @Nullable Path planFile) {
    try (DeployLock lock = DeployLock.acquire(control.root(), config.endpointName())) {
      return deployLocked(config, configFile, planFile);
    }
  }

  private Deployed deployLocked(EndpointConfig config, Path configFile, @Nullable Path planFile) {
    Instant started = clock.instant();
    validateLocal(config);
    DeployedConfig fingerprint = fingerprint(config);
    Path planPath =
        planFile != null
            ? planFile
            : besideOf(configFile).resolve("plan-" + config.modelName() + ".json");
    PlanArtifact plan =
        planFile != null || Files.exists(planPath) ? ArtifactCodec.readPlan(planPath) : null;
    ScalingGate.Decision decision =
        ScalingGate.decide(config, fingerprint, plan, planPath.toString());
    EndpointConfig effective =
        decision instanceof ScalingGate.Decision.Attach a ? a.effective() : config;
    boolean attached = decision instanceof ScalingGate.Decision.Attach;
    String endpoint = config.endpointName();
    Path dir = LocalState.endpointDir(control.root(), endpoint);
    if (control.exists(endpoint)) {
      progress.accept("replacing the running " + endpoint);
      destroy(endpoint);
    } else {
      List<Long> orphans = stopAll(EndpointProcesses.find(dir));
      if (!orphans.isEmpty()) {
        progress.accept(
            "stopped " + orphans.size() + " orphaned process(es) of " + endpoint + ": " + orphans);
      }
    }
    try {
      Files.createDirectories(LocalState.instancesDir(dir));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    LocalState.write(
        LocalState.endpointFile(dir),
        new LocalState.EndpointRecord(
            endpoint,
            effective,
            configFile.toString(),
            new LocalState.ScalingRecord(
                attached, decision.reason(), attached ? planPath.toString() : null),
            fingerprint.imageDigest(),
            build.cachedCommand(effective, AotCache.defaultDirectory(), progress),
            0,
            null,
            0,
            0,
            started));
    progress.accept("scaling: " + decision.reason());
    startSupervisor(dir);
    Views.Describe d = awaitInService(endpoint, effective);
    LocalState.EndpointRecord r = control.live(endpoint);
    String base = "http://127.0.0.1:" + r.routerPort();
    return new Deployed(
        endpoint,
        base,
        base,
        attached,
        decision.reason(),
        d.current(),
        dir,
        Duration.between(started, clock.instant()));
  }

  private void validateLocal(EndpointConfig c) {
    List<String> problems = new ArrayList<>();
    String at = "models." + c.modelName();
    if (c.localCpus() == 0) {
      problems.add(
          at
              + ".instance_type ("
              + c.instanceType()
              + ") is not a local type; use"
              + " local.<n>cpu or local.<m>mcpu here, or --platform aws");
    } else if (c.localCpus() > Runtime.getRuntime().availableProcessors()) {
      problems.add(
          at
              + ".instance_type ("
              + c.instanceType()
              + ") asks for more CPUs than this"
              + " machine has ("
              + Runtime.getRuntime().availableProcessors()
              + ")");
    }
    for (String key : c.engineSettings().keySet()) {
      if (!ENGINE_SETTINGS.contains(key)) {
        problems.add(
            at
                + ".engine_settings."
                + key
                + " is not a speech-server setting; known: "
                + String.join(", ", ENGINE_SETTINGS.stream().sorted().toList()));
      }
    }
    for (String key : List.of("kokoro_model", "kokoro_config", "kokoro_voices", "model_dir")) {
      String v = c.engineSettings().get(key);
      if (v != null && !Files.exists(Path.of(v))) {
        problems.add(at + ".engine_settings." + key + " (" + v + ") does not exist");
      }
    }
    if (c.engine().equals("kokoro")
        && !c.engineSettings().containsKey("model_dir")
        && (!c.engineSettings().containsKey("kokoro_model")
            || !c.engineSettings().containsKey("kokoro_voices"))) {
      problems.add(
          at
              + ": engine kokoro needs engine_settings.kokoro_model and kokoro_voices, or model_dir"
              + " in the Kokoro-82M ONNX export's layout (the ONNX file and kokoro-js voice files;"
              + " no registry here ships them)");
    }
    if (c.maxInstances() > Supervisor.HARD_CAP) {
      problems.add(
          at
              + ".max_instances ("
              + c.maxInstances()
              + ") is more than the local"
              + " platform runs ("
              + Supervisor.HARD_CAP
              + ")");
    }
    if (!problems.isEmpty()) {
      throw new PlatformException(
          new PlatformException.Reason.InvalidRequest(
              "cannot deploy "
                  + c.endpointName()
                  + " locally:\n  "
                  + String.join("\n  ", problems)));
    }
  }

  private void startSupervisor(Path dir) {
    List<String> cmd = new ArrayList<>();
    if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
      cmd.add("/usr/bin/setsid");
    }
    cmd.addAll(
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:+UseSerialGC",
            "-Xmx512m",
            "--enable-native-access=ALL-UNNAMED",
            "-Dspeechscale.server.classpath="
                + System.getProperty(
                    "speechscale.server.classpath", System.getProperty("java.class.path")),
            "-cp",
            System.getProperty("java.class.path"),
            SupervisorMain.class.getName(),
            dir.toAbsolutePath().toString()));
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(
                ProcessBuilder.Redirect.appendTo(dir.resolve("supervisor.log").toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    try {
      pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the supervisor: " + e.getMessage(), e);
    }
  }

  private Views.Describe awaitInService(String endpoint, EndpointConfig config) {
    Instant deadline =
        clock
            .instant()
            .plusSeconds(
                30L
                    + config.local().healthCheckTimeoutS()
                    + config.local().awsPhysics().instanceStartS());
    Path dir = LocalState.endpointDir(control.root(), endpoint);
    String last = "";
    while (clock.instant().isBefore(deadline)) {
      LocalState.EndpointRecord r = control.record(endpoint);
      if (r.controlPort() != 0) {
        if (!LocalState.alive(r.supervisorPid(), r.supervisorStartedAt())) {
          break;
        }
        Views.Status s = liveStatus(endpoint);
        String now =
            s.describe().status() + " " + s.describe().current() + "/" + s.describe().desired();
        if (!now.equals(last)) {
          progress.accept(
              endpoint
                  + ": "
                  + s.describe().status().toLowerCase(java.util.Locale.ROOT)
                  + ", "
                  + s.describe().current()
                  + " of "
                  + s.describe().desired()
                  + " instances in service");
          last = now;
        }
        if (s.describe().status().equals("IN_SERVICE")) {
          return s.describe();
        }
        if (s.describe().status().equals("FAILED")) {
          String why = s.describe().failure();
          destroy(endpoint);
          throw new PlatformException(
              new PlatformException.Reason.Unavailable(
                  endpoint + " failed to come into service: " + why));
        }
      }
      retrying.pause(LocalPlatform.physics(config.local()).minPollInterval());
    }
    String log = tail(dir.resolve("supervisor.log"));
    destroy(endpoint);
    throw new PlatformException(
        new PlatformException.Reason.Unavailable(
            endpoint + " did not come into service in time; supervisor log:\n" + log));
  }

  /**
   * The supervisor's status through the one retrying path every control call takes ({@link
   * RetryingPlatform}): under {@code local.aws_physics.control_calls_per_s} a throttled call waits
   * for the adaptive rate and a jittered backoff instead of failing the command.
   */
  private Views.Status liveStatus(String endpoint) {
    return retrying.call(
        "status of " + endpoint, () -> control.get(endpoint, "/status", Views.Status.class));
  }

  /**
   * What destroy stopped.
   *
   * @param endpoint the endpoint
   * @param existed whether anything was deployed
   * @param stoppedPids processes stopped (supervisor and instances)
   */
  public record Destroyed(String endpoint, boolean existed, List<Long> stoppedPids) {}

  /**
   * Stops everything of {@code endpoint} and removes its state; idempotent. Works from the state
   * files when they are readable, and always also from the processes themselves ({@link
   * EndpointProcesses}), so a damaged {@code endpoint.json} or an instance that {@code status.json}
   * never recorded still leaves nothing behind.
   */
  public Destroyed destroy(String endpoint) {
    Path dir = LocalState.endpointDir(control.root(), endpoint);
    if (!Files.exists(dir)) {
      List<Long> orphans = stopAll(EndpointProcesses.find(dir));
      return new Destroyed(endpoint, !orphans.isEmpty(), orphans);
    }
    LocalState.EndpointRecord r = null;
    if (control.exists(endpoint)) {
      try {
        r = control.record(endpoint);
      } catch (PlatformException | UncheckedIOException damaged) {
        progress.accept(
            LocalState.endpointFile(dir)
                + " is unreadable ("
                + damaged.getMessage()
                + "); stopping the endpoint's processes found by their command line and"
                + " environment instead");
      }
    }
    List<Long> stopped = new ArrayList<>();
    if (r != null) {
      stopped.addAll(stopRecorded(endpoint, r));
      try {
        stopped.addAll(stopOrphans(dir));
      } catch (PlatformException | UncheckedIOException damaged) {
        progress.accept(
            LocalState.statusFile(dir) + " is unreadable (" + damaged.getMessage() + ")");
      }
    }
    for (Long pid : stopAll(EndpointProcesses.find(dir))) {
      if (!stopped.contains(pid)) {
        stopped.add(pid);
      }
    }
    deleteTree(dir);
    return new Destroyed(endpoint, true, stopped);
  }

  /** The supervisor named by a readable record: asked to shut down, then stopped. */
  private List<Long> stopRecorded(String endpoint, LocalState.EndpointRecord r) {
    List<Long> stopped = new ArrayList<>();
    if (r.controlPort() != 0 && LocalState.alive(r.supervisorPid(), r.supervisorStartedAt())) {
      try {
        retrying.call(
            "shutdown of " + endpoint,
            () -> control.post(endpoint, "/shutdown", new Views.Desired(0), Views.Error.class));
      } catch (PlatformException e) {
        progress.accept(
            "the supervisor did not take the shutdown request ("
                + e.getMessage()
                + "); stopping it");
      }
      ProcessHandle.of(r.supervisorPid())
          .ifPresent(h -> {
            stop(h, Duration.ofSeconds(90));
            stopped.add(h.pid());
          });
    } else if (r.supervisorPid() > 0) {
      ProcessHandle.of(r.supervisorPid())
          .filter(h -> LocalState.alive(h.pid(), r.supervisorStartedAt()))
          .ifPresent(h -> {
            stop(h, Duration.ofSeconds(30));
            stopped.add(h.pid());
          });
    }
    return stopped;
  }

  /** Stops each process (in order) that is still alive; returns their pids. */
  private static List<Long> stopAll(List<ProcessHandle> processes) {
    List<Long> stopped = new ArrayList<>();
    for (ProcessHandle h : processes) {
      if (h.isAlive()) {
        stop(h, Duration.ofSeconds(15));
        stopped.add(h.pid());
      }
    }
    return stopped;
  }

  /** Instance processes recorded in {@code status.json} that are still alive, stopped. */
  List<Long> stopOrphans(Path dir) {
    List<Long> stopped = new ArrayList<>();
    LocalState.read(LocalState.statusFile(dir), Views.Status.class)
        .ifPresent(s -> {
          for (LocalState.InstanceRecord i : s.instances()) {
            if (LocalState.alive(i.pid(), i.startedAt())) {
              ProcessHandle.of(i.pid())
                  .ifPresent(h -> {
                    stop(h, Duration.ofSeconds(15));
                    stopped.add(i.pid());
                  });
            }
          }
        });
    return stopped;
  }

  /**
   * What status found.
   *
   * @param endpoint the endpoint
   * @param supervisorAlive whether its supervisor runs
   * @param status the published status (live, or the last one written; {@code null} if none)
   * @param orphansStopped orphaned instance processes this call stopped
   * @param record the deployment record
   */
  public record Report(
      String endpoint,
      boolean supervisorAlive,
      Views.@Nullable Status status,
      List<Long> orphansStopped,
      LocalState.EndpointRecord record) {}

  /** The endpoint's status; a dead supervisor is reported and its orphans stopped. */
  public Report status(String endpoint) {
    LocalState.EndpointRecord r = control.record(endpoint);
    Path dir = LocalState.endpointDir(control.root(), endpoint);
    boolean alive =
        r.controlPort() != 0 && LocalState.alive(r.supervisorPid(), r.supervisorStartedAt());
    if (alive) {
      return new Report(endpoint, true, liveStatus(endpoint), List.of(), r);
    }
    List<Long> orphans = stopOrphans(dir);
    return new Report(
        endpoint,
        false,
        LocalState.read(LocalState.statusFile(dir), Views.Status.class).orElse(null),
        orphans,
        r);
  }

  private static void stop(ProcessHandle h, Duration bound) {
    h.destroy();
    try {
      h.onExit().get(bound.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      h.destroyForcibly();
      try {
        h.onExit().get(5, java.util.concurrent.TimeUnit.SECONDS);
      } catch (Exception stillThere) {
        // reported by the caller's next check: the pid stays alive
      }
    }
  }

  private static String tail(Path file) {
    try {
      List<String> lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove " + dir + ": " + e.getMessage(), e);
    }
  }

  /** The directory a file sits in; the root has none, so it is its own. */
  private static Path besideOf(Path file) {
    Path absolute = file.toAbsolutePath();
    Path parent = absolute.getParent();
    return parent != null ? parent : absolute;
  }
}
