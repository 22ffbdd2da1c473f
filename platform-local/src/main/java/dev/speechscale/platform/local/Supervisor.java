package dev.speechscale.platform.local;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.ScalingMetricChoice;
import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.SuspendedState;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Owns one local endpoint: its instance processes, the router, the metric store, the autoscaler and
 * the control API. One loop, once a second: sample ConcurrentRequestsPerModel, notice dead
 * instances, start or drain instances until in-service matches desired, evaluate the policies, and
 * publish the status to the state directory.
 *
 * <p>This class is the one owner of the endpoint's mutable state; everything else reads it through
 * the control API or {@code status.json}. It is larger than most because the reconcile loop,
 * instance lifecycle and scaling decisions only make sense together.
 */
final class Supervisor implements Autoscaler.Capacity, AutoCloseable {
  /** More local instances than this would starve the machine; ttotal needs min + 1 at most. */
  static final int HARD_CAP = 8;

  private static final int STARTUP_FAILURES_BEFORE_GIVING_UP = 3;

  /** The reconcile loop's period. */
  static final Duration TICK = Duration.ofSeconds(1);

  /**
   * How long a draining instance keeps the requests it holds: no client of this platform waits for
   * one longer than the invokers' request timeout, and the router gives up on a silent instance at
   * the same bound; one tick more, so a request that ends exactly at the bound is not cut.
   */
  static final Duration DRAIN_BOUND = LocalPlatform.REQUEST_TIMEOUT.plus(TICK);

  private static final Duration DRAIN_POLL = Duration.ofMillis(50);

  private final Path dir;
  private final LocalState.EndpointRecord spec;
  private final EndpointConfig config;
  private final Clock clock;
  private final PrintStream log;
  private final Backends backends = new Backends();
  private final RequestStats stats = new RequestStats();
  private final MetricStore metrics;
  private final @Nullable Autoscaler autoscaler;
  private final List<InstanceProcess> instances = new ArrayList<>();
  private final List<Views.Activity> directActivities = new ArrayList<>();
  private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private @Nullable Router router;
  private @Nullable ControlServer control;
  private volatile int desired;
  private volatile boolean everInService;
  private volatile boolean shuttingDown;
  private volatile @Nullable String failure;
  private volatile @Nullable String capacityFailure;
  private int nextInstance = 1;
  private int startupFailures;

  Supervisor(Path dir, LocalState.EndpointRecord spec, Clock clock, PrintStream log) {
    this.dir = dir;
    this.spec = spec;
    this.config = spec.config();
    this.clock = clock;
    this.log = log;
    this.desired = config.minInstances();
    this.metrics =
        new MetricStore(Duration.ofSeconds(config.local().awsPhysics().metricDelayS()), clock);
    this.autoscaler =
        spec.scaling().attached()
            ? new Autoscaler(
                Autoscaler.Policy.of(
                    attached(config.scalingTargetValue(), "scaling_target_value"),
                    attached(config.scaleInThreshold(), "scale_in_threshold"),
                    config.minInstances(),
                    config.maxInstances(),
                    attached(config.scaleOutCooldownS(), "scale_out_cooldown_s"),
                    attached(config.scaleInCooldownS(), "scale_in_cooldown_s"),
                    config.scaleInAlarmOrDefault(),
                    config.scheduledFloorsOrNone(),
                    config.scalingMetricOrDefault(),
                    config.local().timeScale()),
                metrics,
                this)
            : null;
  }

  /** Starts the router and control API, records them, then runs the loop until shut down. */
  void run() throws Exception {
    router = new Router(spec.endpoint(), "127.0.0.1", spec.routerPort(), backends, stats);
    int routerPort = router.start();
    control = new ControlServer(this, LocalState.secretFile(dir));
    int controlPort = control.start();
    ProcessHandle self = ProcessHandle.current();
    LocalState.write(
        LocalState.endpointFile(dir),
        new LocalState.EndpointRecord(
            spec.endpoint(),
            config,
            spec.configFile(),
            spec.scaling(),
            spec.fingerprintDigest(),
            spec.serverCommand(),
            self.pid(),
            LocalState.startOf(self),
            routerPort,
            controlPort,
            spec.deployedAt()));
    say(
        "supervising %s: router on 127.0.0.1:%d, control on 127.0.0.1:%d; scaling %s (%s)",
        spec.endpoint(),
        routerPort,
        controlPort,
        spec.scaling().attached() ? "attached" : "off",
        spec.scaling().reason());
    try {
      while (!shuttingDown) {
        tick(clock.instant());
        if (stopped.await(TICK.toMillis(), TimeUnit.MILLISECONDS)) {
          break;
        }
      }
    } finally {
      stopEverything();
    }
  }

  /** One pass of the loop; package-private so tests can drive it. */
  synchronized void tick(Instant now) {
    sample(now);
    noticeDeaths();
    reconcile();
    if (autoscaler != null && everInService) {
      autoscaler.evaluate(now);
    }
    LocalState.write(LocalState.statusFile(dir), status(now));
  }

  private void sample(Instant now) {
    List<Backend> live = backends.inService();
    RequestStats.Drained d = stats.drain();
    long inFlight = backends.inFlightInService();
    double perInstance =
        live.isEmpty()
                || (physics().concurrencyWhenIdle() == EndpointConfig.IdleConcurrency.MISSING
                    && inFlight == 0
                    && d.invocations() == 0)
            ? Double.NaN
            : (double) inFlight / live.size();
    metrics.record(
        new MetricStore.Sample(
            now,
            perInstance,
            d.invocations(),
            d.errors4xx(),
            d.errors5xx(),
            d.firstChunkMicros(),
            live.size()));
  }

  private void noticeDeaths() {
    for (InstanceProcess i : instances) {
      if ((i.phase() == InstanceProcess.Phase.IN_SERVICE
              || i.phase() == InstanceProcess.Phase.STARTING)
          && !i.alive()) {
        if (i.backend() != null) {
          backends.remove(i.backend());
        }
        boolean wasStarting = i.phase() == InstanceProcess.Phase.STARTING;
        i.phase(InstanceProcess.Phase.FAILED);
        say(
            "instance %s (pid %d) exited%s; last lines: %s",
            i.id(),
            i.pid(),
            wasStarting ? " before it was in service" : " while in service",
            i.tail());
        if (wasStarting) {
          countStartupFailure(i);
        }
      }
    }
  }

  private void countStartupFailure(InstanceProcess i) {
    startupFailures++;
    if (startupFailures >= STARTUP_FAILURES_BEFORE_GIVING_UP && !everInService) {
      failure =
          "instances fail to start ("
              + startupFailures
              + " in a row); last lines of "
              + i.id()
              + ": "
              + String.join(" | ", i.tail());
      say("giving up: %s", failure);
    }
  }

  /** Starts or drains instances until the active count matches desired. */
  private void reconcile() {
    if (failure != null || shuttingDown) {
      return;
    }
    List<InstanceProcess> starting = inPhase(InstanceProcess.Phase.STARTING);
    List<InstanceProcess> serving = inPhase(InstanceProcess.Phase.IN_SERVICE);
    int active = starting.size() + serving.size();
    int limit = config.local().awsPhysics().capacityLimit();
    if (limit > 0 && desired > Math.max(active, limit)) {
      insufficientCapacity(Math.max(active, limit));
    }
    for (int n = active; n < desired; n++) {
      launch();
    }
    int excess = active - desired;
    List<InstanceProcess> candidates = new ArrayList<>(starting);
    candidates.sort(Comparator.comparing(InstanceProcess::requestedAt).reversed());
    List<InstanceProcess> byLoad = new ArrayList<>(serving);
    byLoad.sort(
        Comparator.comparingInt(Supervisor::inFlight)
            .thenComparing(InstanceProcess::requestedAt, Comparator.reverseOrder()));
    candidates.addAll(byLoad);
    for (int k = 0; k < excess; k++) {
      drainAndStop(candidates.get(k));
    }
  }

  /**
   * SageMaker's answer to a scale-out the Region has no capacity for: the instances are not added
   * and DescribeEndpoint's FailureReason says why, in SageMaker's words (AWS re:Post knowledge
   * center, "sagemaker-endpoint-creation-fail": "Unable to provision requested ML compute capacity
   * due to InsufficientInstanceCapacity error"); desired falls back to what can run. An endpoint
   * that never reached its minimum fails outright, as a creation does.
   */
  private void insufficientCapacity(int available) {
    say(
        "scale-out to %d refused: aws_physics.capacity_limit %d (%s)",
        desired, config.local().awsPhysics().capacityLimit(), INSUFFICIENT_CAPACITY);
    desired = available;
    capacityFailure = INSUFFICIENT_CAPACITY;
    if (available < config.minInstances()) {
      failure = INSUFFICIENT_CAPACITY;
    }
  }

  /** SageMaker's FailureReason when it cannot provision an instance. */
  static final String INSUFFICIENT_CAPACITY =
      "Unable to provision requested ML compute capacity due to InsufficientInstanceCapacity error";

  private List<InstanceProcess> inPhase(InstanceProcess.Phase phase) {
    return instances.stream().filter(i -> i.phase() == phase).toList();
  }

  private void launch() {
    String id = "i-local-" + nextInstance++;
    List<String> command = new ArrayList<>(spec.serverCommand());
    Map<String, String> env = new HashMap<>(config.engineEnvironment());
    env.putAll(config.containerEnv());
    env.put("MAX_QUEUE_DEPTH", Integer.toString(config.queueMaxDepth()));
    env.put(EndpointProcesses.ENV, EndpointProcesses.key(dir)); // found by destroy, whatever else
    InstanceProcess instance;
    try {
      instance =
          InstanceProcess.launch(
              id,
              pinned(command, nextInstance - 2),
              env,
              LocalState.instancesDir(dir).resolve(id + ".log"),
              clock);
    } catch (IOException e) {
      failure = "cannot start an instance: " + e.getMessage();
      say("%s", failure);
      return;
    }
    instances.add(instance);
    say("starting %s (pid %d)", id, instance.pid());
    limitCpu(instance);
    workers.submit(() -> bringIntoService(instance));
  }

  /**
   * Pins an instance to whole cores, round-robin over the machine, and tells its JVM how many it
   * has; a fractional share ({@code local.500mcpu}) is enforced by {@link CpuQuota} after start.
   */
  private List<String> pinned(List<String> command, int index) {
    double share = config.localCpus();
    int cpus = Math.max(1, (int) Math.ceil(share));
    int machine = Runtime.getRuntime().availableProcessors();
    List<String> out = new ArrayList<>();
    if (cpus < machine && Path.of("/usr/bin/taskset").toFile().canExecute()) {
      StringBuilder set = new StringBuilder();
      for (int c = 0; c < cpus; c++) {
        set.append(c == 0 ? "" : ",").append((index * cpus + c) % machine);
      }
      out.addAll(List.of("/usr/bin/taskset", "-c", set.toString()));
    }
    out.addAll(command);
    int at = out.indexOf("-cp");
    out.add(at < 0 ? 1 : at, "-XX:ActiveProcessorCount=" + cpus);
    return out;
  }

  private void limitCpu(InstanceProcess i) {
    double share = config.localCpus();
    i.cpuRequested(share, "");
    if (share >= Math.ceil(share)) {
      return;
    }
    StringBuilder why = new StringBuilder();
    CpuQuota.apply(i.pid(), share, CpuQuota.groupName(dir, spec.endpoint(), i.id()), why)
        .ifPresentOrElse(
            dir -> {
              i.cpuGroup(dir);
              say("%s limited to %.3f CPU (%s): %s", i.id(), share, dir, i.cpuLimit().describe());
            },
            () -> {
              i.cpuRequested(share, why.toString());
              say("%s runs without its %.3f CPU limit: %s", i.id(), share, why);
            });
  }

  private void bringIntoService(InstanceProcess i) {
    Duration timeout = Duration.ofSeconds(config.local().healthCheckTimeoutS());
    Instant deadline = clock.instant().plus(timeout);
    try {
      int port = i.awaitPort(timeout);
      HttpRequest ping =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ping"))
              .timeout(Duration.ofSeconds(2))
              .build();
      while (clock.instant().isBefore(deadline) && i.alive() && !shuttingDown) {
        try {
          if (http.send(ping, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            holdUntilStarted(i);
            joinRouter(i, port);
            return;
          }
        } catch (IOException notYet) {
          // the server is still starting; /ping answers once warm-up is done
        }
        Thread.sleep(50);
      }
      if (i.alive()) {
        say("instance %s did not pass /ping within %s; stopping it", i.id(), timeout);
        i.stop(Duration.ofSeconds(5));
      }
    } catch (Exception e) {
      say("instance %s failed to start: %s", i.id(), e.getMessage());
    }
    synchronized (this) {
      if (i.phase() == InstanceProcess.Phase.STARTING) {
        i.phase(InstanceProcess.Phase.FAILED);
        countStartupFailure(i);
      }
    }
  }

  /**
   * With {@code local.aws_physics.instance_start_s}, keeps a ready instance out of service until
   * that long after it was requested, as a SageMaker instance provisions for minutes. Its stage
   * markers are left as the server printed them, so the wait shows as {@code ready → in_service}.
   */
  private void holdUntilStarted(InstanceProcess i) throws InterruptedException {
    Instant earliest = i.requestedAt().plusMillis(startMillis(i.id()));
    Duration wait = Duration.between(clock.instant(), earliest);
    if (wait.isNegative() || wait.isZero()) {
      return;
    }
    say(
        "%s is ready; held out of service for %d ms more (aws_physics.instance_start_s %d)",
        i.id(), wait.toMillis(), config.local().awsPhysics().instanceStartS());
    if (config.local().awsPhysics().instanceStartJitterS() > 0) {
      say(
          "%s start drawn within instance_start_jitter_s %d: %d ms in all",
          i.id(), config.local().awsPhysics().instanceStartJitterS(), startMillis(i.id()));
    }
    while (clock.instant().isBefore(earliest) && i.alive() && !shuttingDown) {
      Thread.sleep(
          Math.max(1, Math.min(250, Duration.between(clock.instant(), earliest).toMillis())));
    }
  }

  /**
   * How long instance {@code id} takes to start: {@code instance_start_s} plus a uniform draw in
   * {@code [0, instance_start_jitter_s]} seeded by the instance's id, so a run repeats.
   */
  long startMillis(String id) {
    EndpointConfig.AwsPhysics p = config.local().awsPhysics();
    long base = p.instanceStartS() * 1000L;
    if (p.instanceStartJitterS() == 0) {
      return base;
    }
    return base
        + new java.util.SplittableRandom(id.hashCode())
            .nextLong(p.instanceStartJitterS() * 1000L + 1);
  }

  private synchronized void joinRouter(InstanceProcess i, int port) {
    if (i.phase() != InstanceProcess.Phase.STARTING) {
      return;
    }
    Backend b = new Backend(i.id(), "127.0.0.1", port);
    i.backend(b);
    backends.add(b);
    i.phase(InstanceProcess.Phase.IN_SERVICE);
    startupFailures = 0;
    if (inPhase(InstanceProcess.Phase.IN_SERVICE).size() >= config.minInstances()) {
      everInService = true;
    }
    say("%s in service on port %d", i.id(), port);
  }

  private void drainAndStop(InstanceProcess i) {
    Backend b = i.backend();
    if (b != null) {
      backends.drain(b);
    }
    i.phase(InstanceProcess.Phase.DRAINING);
    say("draining %s (%d in flight)", i.id(), b == null ? 0 : b.inFlight());
    workers.submit(() -> {
      try {
        if (b != null && !awaitDrained(b, clock, DRAIN_BOUND, Thread::sleep)) {
          say(
              "%s still held %d request(s) after %s; stopping it",
              i.id(), b.inFlight(), DRAIN_BOUND);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      i.stop(Duration.ofSeconds(30));
      if (b != null) {
        backends.remove(b);
      }
      i.phase(InstanceProcess.Phase.STOPPED);
      say("%s stopped", i.id());
    });
  }

  /** A pause the drain waits with; a test moves its fake clock instead. */
  @FunctionalInterface
  interface Pause {
    void pause(Duration d) throws InterruptedException;
  }

  /**
   * Waits until {@code b} holds no request or {@code bound} has passed on {@code clock}; true when
   * it drained.
   */
  static boolean awaitDrained(Backend b, Clock clock, Duration bound, Pause pause)
      throws InterruptedException {
    Instant deadline = clock.instant().plus(bound);
    while (b.inFlight() > 0 && clock.instant().isBefore(deadline)) {
      pause.pause(DRAIN_POLL);
    }
    return b.inFlight() == 0;
  }

  // Autoscaler.Capacity

  @Override
  public int desired() {
    return desired;
  }

  @Override
  public int inService() {
    return backends.inService().size();
  }

  @Override
  public void setDesired(int count, String cause) {
    say("desired %d -> %d: %s", desired, count, cause);
    desired = count;
  }

  /** Sets desired directly (UpdateEndpointWeightsAndCapacities), bypassing the policies. */
  synchronized void setDesiredDirectly(int count) {
    if (count < 1 || count > Math.max(HARD_CAP, config.maxInstances())) {
      throw new IllegalArgumentException(
          "desired instance count ("
              + count
              + ") must be between 1 and "
              + Math.max(HARD_CAP, config.maxInstances())
              + " on the local platform");
    }
    directActivities.add(
        new Views.Activity(clock.instant(), desired, count, "desired set directly"));
    setDesired(count, "desired set directly");
  }

  synchronized void setSuspended(SuspendedState state) {
    scalableTarget().setSuspended(state);
    say("suspended flags: %s", state);
  }

  /** Creates or replaces a scheduled floor (the AWS-shaped plane's PutScheduledAction). */
  synchronized void putFloor(Views.Floor floor) {
    scalableTarget().putFloor(floor);
    say(
        "scheduled floor %s: min capacity %d from %s UTC",
        floor.name(), floor.minCapacity(), floor.at());
  }

  /** Deletes a scheduled floor by name (DeleteScheduledAction). */
  synchronized void deleteFloor(String name) {
    scalableTarget().deleteFloor(name);
    say("scheduled floor %s deleted", name);
  }

  /** The autoscaler, for a call that needs a scalable target; refused when scaling is detached. */
  private Autoscaler scalableTarget() {
    if (autoscaler == null) {
      throw new IllegalStateException(
          spec.endpoint() + " has no scalable target: " + spec.scaling().reason());
    }
    return autoscaler;
  }

  synchronized Views.Status status(Instant now) {
    return new Views.Status(
        describe(),
        scaling(),
        instances.stream().map(InstanceProcess::record).toList(),
        router == null ? 0 : router.port(),
        ProcessHandle.current().pid(),
        now);
  }

  synchronized Views.Describe describe() {
    int current = inService();
    EndpointStatus s;
    if (failure != null) {
      s = EndpointStatus.FAILED;
    } else if (!everInService) {
      s = EndpointStatus.CREATING;
    } else if (current != desired || !inPhase(InstanceProcess.Phase.STARTING).isEmpty()) {
      s = EndpointStatus.UPDATING;
    } else {
      s = EndpointStatus.IN_SERVICE;
    }
    return new Views.Describe(
        spec.endpoint(),
        s.name(),
        desired,
        current,
        config.instanceType(),
        failure != null ? failure : capacityFailure);
  }

  synchronized Views.Scaling scaling() {
    if (autoscaler == null) {
      return new Views.Scaling(
          false,
          spec.scaling().reason(),
          null,
          config.minInstances(),
          config.maxInstances(),
          false,
          false,
          false,
          0,
          0,
          0,
          0,
          0,
          0,
          null,
          0,
          0,
          null,
          null,
          List.copyOf(directActivities),
          List.of(),
          null,
          null);
    }
    Autoscaler.Policy p = autoscaler.policy();
    SuspendedState s = autoscaler.suspended();
    List<Views.Activity> activities = new ArrayList<>(directActivities);
    autoscaler
        .activities()
        .forEach(a -> activities.add(new Views.Activity(a.at(), a.from(), a.to(), a.cause())));
    activities.sort(Comparator.comparing(Views.Activity::at));
    return new Views.Scaling(
        true,
        spec.scaling().reason(),
        "endpoint/" + spec.endpoint() + "/variant/AllTraffic",
        p.minCapacity(),
        p.maxCapacity(),
        s.dynamicScalingIn(),
        s.dynamicScalingOut(),
        s.scheduledScaling(),
        p.targetValue(),
        (int) p.trackingPeriod().toSeconds(),
        p.trackingEvaluationPeriods(),
        (int) p.scaleOutCooldown().toSeconds(),
        p.scaleInThreshold(),
        (int) p.scaleInPeriod().toSeconds(),
        p.scaleInStatistic().awsName(),
        p.scaleInEvaluationPeriods(),
        (int) p.scaleInCooldown().toSeconds(),
        autoscaler.highAlarm().name(),
        autoscaler.lowAlarm().name(),
        activities,
        autoscaler.floors(),
        p.tracksScaleIn() ? ScalingMetricChoice.INVOCATIONS_PER_INSTANCE.label() : null,
        p.scaleInTreatMissingData().awsName());
  }

  MetricStore metrics() {
    return metrics;
  }

  /** The endpoint's AWS physics settings. */
  EndpointConfig.AwsPhysics physics() {
    return config.local().awsPhysics();
  }

  /** A line in the supervisor's log, from a part of it (the control API's per-minute counts). */
  void note(String line) {
    say("%s", line);
  }

  /** Asks the loop to stop; {@link #run()} then drains and stops every instance. */
  void requestShutdown() {
    shuttingDown = true;
    stopped.countDown();
  }

  private void stopEverything() {
    say("shutting down %s", spec.endpoint());
    List<InstanceProcess> all;
    synchronized (this) {
      all = List.copyOf(instances);
    }
    for (InstanceProcess i : all) {
      if (i.backend() != null) {
        backends.drain(i.backend());
      }
    }
    all.parallelStream().forEach(i -> i.stop(Duration.ofSeconds(30)));
    all.forEach(i -> {
      if (i.phase() != InstanceProcess.Phase.FAILED) {
        i.phase(InstanceProcess.Phase.STOPPED);
      }
    });
    workers.shutdownNow();
    if (control != null) {
      control.close();
    }
    if (router != null) {
      router.close();
    }
    LocalState.write(LocalState.statusFile(dir), status(clock.instant()));
    say("stopped");
  }

  @Override
  public void close() {
    requestShutdown();
  }

  private void say(String format, @Nullable Object... args) {
    log.printf(Locale.ROOT, "%s %s%n", clock.instant(), String.format(Locale.ROOT, format, args));
    log.flush();
  }

  /** Alarm states, for tests. */
  Alarm.AlarmState highAlarm() {
    return autoscaler == null ? Alarm.AlarmState.INSUFFICIENT_DATA : autoscaler.highAlarm();
  }

  /** An attached plan's effective config has every scaling figure; the gate guarantees it. */
  private static <T> T attached(@Nullable T value, String field) {
    if (value == null) {
      throw new IllegalStateException(
          "scaling is attached but the effective config has no "
              + field
              + "; ScalingGate fills it from the plan");
    }
    return value;
  }

  /** Requests in flight on a serving instance (one without a backend yet holds none). */
  private static int inFlight(InstanceProcess i) {
    Backend b = i.backend();
    return b == null ? 0 : b.inFlight();
  }
}
