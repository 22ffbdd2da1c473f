package dev.speechscale.platform.local;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.ScalingMetricChoice;
import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.InstanceLog;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.Invokers;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricQuery.Metric;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.OrphanedScaling;
import dev.speechscale.platform.Physics;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.ScheduledAction;
import dev.speechscale.platform.Statistic;
import dev.speechscale.platform.SuspendedState;
import dev.speechscale.platform.Transport;
import dev.speechscale.scaling.ScheduledFloor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The platform SPI over local endpoints: talks to each endpoint's supervisor through its control
 * API, and reads instance log streams straight from the state directory (so logs survive a dead
 * supervisor).
 */
public final class LocalPlatform implements Platform {
  private final ControlClient control;

  /** Local endpoints under {@code root} (see {@link #defaultRoot()}). */
  public LocalPlatform(Path root) {
    this.control = new ControlClient(root);
  }

  /** {@code $SPEECHSCALE_STATE_DIR}, else {@code ~/.speechscale/local}. */
  public static Path defaultRoot() {
    return LocalState.defaultRoot();
  }

  @Override
  public String name() {
    return "local";
  }

  /** The metric store keeps one datapoint a second. */
  @Override
  public Duration finestMetricPeriod() {
    return Duration.ofSeconds(1);
  }

  /**
   * From the endpoint's {@code local.aws_physics}: with a control-call limit, a poller waits at
   * least three call intervals (so three pollers together stay under it), else 200 ms; the metric
   * delay as configured; the start-up bound is the stretched start plus the health-check timeout;
   * the request timeout is the one {@link #invoker} gives its requests.
   */
  @Override
  public Physics physics(String endpoint) {
    return physics(control.record(endpoint).config().local());
  }

  static Physics physics(EndpointConfig.Local local) {
    EndpointConfig.AwsPhysics p = local.awsPhysics();
    Duration poll =
        p.controlCallsPerSecond() > 0
            ? Duration.ofMillis(
                Math.max(
                    UNLIMITED_POLL.toMillis(),
                    (long) Math.ceil(POLLERS_SHARING_THE_LIMIT * 1000 / p.controlCallsPerSecond())))
            : UNLIMITED_POLL;
    return new Physics(
        poll,
        Duration.ofSeconds(p.metricDelayS()),
        Duration.ofSeconds((long) p.instanceStartS() + local.healthCheckTimeoutS()),
        REQUEST_TIMEOUT);
  }

  /**
   * How long one invocation may take: the router's own read timeout on an instance, so the client
   * never gives up on a request the router is still waiting for.
   */
  static final Duration REQUEST_TIMEOUT = UpstreamConnection.READ_TIMEOUT;

  /** The chain's polling interval when the control API has no limit. */
  private static final Duration UNLIMITED_POLL = Duration.ofMillis(200);

  /** How many pollers may share the limit at once (ttotal: describe and the probe's capacity). */
  private static final int POLLERS_SHARING_THE_LIMIT = 3;

  @Override
  public EndpointDescription describe(String endpoint) {
    Views.Describe d = control.get(endpoint, "/status", Views.Status.class).describe();
    return new EndpointDescription(
        d.name(),
        EndpointStatus.valueOf(d.status()),
        d.desired(),
        d.current(),
        d.instanceType(),
        Instant.now());
  }

  @Override
  public Optional<String> failureReason(String endpoint) {
    return Optional.ofNullable(
        control.get(endpoint, "/status", Views.Status.class).describe().failure());
  }

  @Override
  public Fingerprint fingerprint(String endpoint) {
    LocalState.EndpointRecord r = control.record(endpoint);
    return new Fingerprint(
        r.config().instanceType(), r.fingerprintDigest(), r.config().containerEnv());
  }

  /**
   * The limit of the in-service instances, read back by the supervisor from each instance's cgroup
   * and affinity mask: the first one not held to its type's share, else the first one.
   */
  @Override
  public java.util.Optional<dev.speechscale.platform.CpuLimit> cpuLimit(String endpoint) {
    List<dev.speechscale.platform.CpuLimit> limits =
        control.get(endpoint, "/status", Views.Status.class).instances().stream()
            .filter(i -> "in_service".equals(i.phase()) && i.cpuLimit() != null)
            .map(LocalState.InstanceRecord::cpuLimit)
            .toList();
    return limits.stream()
        .filter(l -> !l.enforced())
        .findFirst()
        .or(() -> limits.stream().findFirst());
  }

  /**
   * One probe per group of cores the supervisor pins instances to ({@link LocalHostProbe}); empty
   * with the reason on standard error when the instances are not pinned apart, none is in service,
   * or the probe cannot start.
   */
  @Override
  public java.util.Optional<dev.speechscale.platform.HostSpeedProbe> startHostSpeedProbe(
      String endpoint) {
    List<LocalState.InstanceRecord> all =
        control.get(endpoint, "/status", Views.Status.class).instances();
    int launches = 0;
    LocalState.InstanceRecord serving = null;
    for (LocalState.InstanceRecord i : all) {
      int n = launchNumber(i.id());
      launches = Math.max(launches, n);
      if ("in_service".equals(i.phase()) && (serving == null || n < launchNumber(serving.id()))) {
        serving = i;
      }
    }
    StringBuilder why = new StringBuilder();
    java.util.Optional<dev.speechscale.platform.HostSpeedProbe> probe =
        serving == null
            ? java.util.Optional.empty()
            : LocalHostProbe.start(
                serving.pid(), launchNumber(serving.id()), launches, ServerBuild.current(), why);
    if (probe.isEmpty()) {
      System.err.printf(
          "%s: host speed not probed: %s%n",
          endpoint, serving == null ? "no instance is in service" : why);
    }
    return probe;
  }

  /** n of {@code i-local-n}, the supervisor's launch count (0 for another id). */
  static int launchNumber(String instanceId) {
    String prefix = "i-local-";
    try {
      return instanceId.startsWith(prefix)
          ? Integer.parseInt(instanceId.substring(prefix.length()))
          : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  @Override
  public ScalingState scalingState(String endpoint) {
    return toState(endpoint, control.get(endpoint, "/status", Views.Status.class).scaling());
  }

  static ScalingState toState(String endpoint, Views.Scaling s) {
    if (!s.attached()) {
      return ScalingState.none(s.reason());
    }
    String high = "TargetTracking-" + endpoint + "-AlarmHigh";
    if (ScalingMetricChoice.INVOCATIONS_PER_INSTANCE.label().equals(s.scalingMetric())) {
      return invocationsState(endpoint, s, high);
    }
    String low = endpoint + "-scale-in";
    return new ScalingState(
        Optional.of(scalableTarget(s)),
        List.of(
            new ScalingPolicy.TargetTracking(
                endpoint + "-target-tracking",
                Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName(),
                Statistic.MAXIMUM,
                s.trackingPeriodS(),
                s.targetValue(),
                s.scaleOutCooldownS(),
                0,
                true),
            new ScalingPolicy.StepScaling(
                endpoint + "-step-scale-in",
                "ChangeInCapacity",
                List.of(new ScalingPolicy.Step(null, 0.0, -1)),
                s.scaleInCooldownS(),
                List.of(low))),
        List.of(
            highAlarm(
                s,
                high,
                Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName(),
                Statistic.MAXIMUM,
                endpoint + "-target-tracking"),
            new Alarm(
                low,
                Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName(),
                "Maximum".equals(s.scaleInStatistic()) ? Statistic.MAXIMUM : Statistic.AVERAGE,
                s.scaleInPeriodS(),
                s.scaleInEvaluationPeriods(),
                s.scaleInThreshold(),
                Alarm.Comparison.LESS_THAN_OR_EQUAL_TO_THRESHOLD,
                Alarm.AlarmState.valueOf(attached(s.lowAlarmState(), "low_alarm_state")),
                List.of(endpoint + "-step-scale-in"),
                s.scaleInTreatMissingData())),
        s.reason());
  }

  /**
   * Target tracking's high alarm: {@code metric}'s {@code statistic} above the target for the
   * tracking periods, invoking {@code policy}.
   */
  private static Alarm highAlarm(
      Views.Scaling s, String name, String metric, Statistic statistic, String policy) {
    return new Alarm(
        name,
        metric,
        statistic,
        s.trackingPeriodS(),
        s.trackingEvaluationPeriods(),
        s.targetValue(),
        Alarm.Comparison.GREATER_THAN_THRESHOLD,
        Alarm.AlarmState.valueOf(attached(s.highAlarmState(), "high_alarm_state")),
        List.of(policy),
        null);
  }

  private static ScalingState.ScalableTarget scalableTarget(Views.Scaling s) {
    return new ScalingState.ScalableTarget(
        attached(s.resourceId(), "resource_id"),
        s.min(),
        s.max(),
        new SuspendedState(s.suspendedIn(), s.suspendedOut(), s.suspendedScheduled()),
        scheduledActions(s));
  }

  /**
   * InvocationsPerInstance target tracking as Application Auto Scaling describes it: one policy,
   * scale-in enabled, its high and low alarms (Sum over 60 s, scaled), no step policy.
   */
  private static ScalingState invocationsState(String endpoint, Views.Scaling s, String high) {
    String tracking = endpoint + "-target-tracking";
    String metric = Metric.INVOCATIONS_PER_INSTANCE.cloudWatchName();
    return new ScalingState(
        Optional.of(scalableTarget(s)),
        List.of(
            new ScalingPolicy.TargetTracking(
                tracking,
                metric,
                Statistic.SUM,
                s.trackingPeriodS(),
                s.targetValue(),
                s.scaleOutCooldownS(),
                s.scaleInCooldownS(),
                false)),
        List.of(
            highAlarm(s, high, metric, Statistic.SUM, tracking),
            new Alarm(
                "TargetTracking-" + endpoint + "-AlarmLow",
                metric,
                Statistic.SUM,
                s.scaleInPeriodS(),
                s.scaleInEvaluationPeriods(),
                s.scaleInThreshold(),
                Alarm.Comparison.LESS_THAN_THRESHOLD,
                Alarm.AlarmState.valueOf(attached(s.lowAlarmState(), "low_alarm_state")),
                List.of(tracking),
                null)),
        s.reason());
  }

  /** The floors as scheduled actions: daily {@code cron(M H * * ? *)}, MinCapacity only. */
  private static List<ScheduledAction> scheduledActions(Views.Scaling s) {
    if (s.scheduledFloors() == null) {
      return List.of();
    }
    return s.scheduledFloors().stream()
        .map(f ->
            new ScheduledAction(
                f.name(), ScheduledFloor.at(f.at(), f.minCapacity()).cron(), f.minCapacity(), null))
        .toList();
  }

  /**
   * Puts a scheduled floor: the local platform runs daily schedules {@code cron(M H * * ? *)} that
   * set MinCapacity only (MaxCapacity absent or the deployed maximum); it refuses others.
   */
  @Override
  public void putScheduledAction(String endpoint, ScheduledAction action) {
    if (action.minCapacity() == null) {
      throw new PlatformException(
          new PlatformException.Reason.InvalidRequest(
              "scheduled action "
                  + action.name()
                  + " sets no MinCapacity; the local platform runs minimum-capacity floors only:"
                  + " give ScalableTargetAction.MinCapacity"));
    }
    ScheduledFloor f;
    try {
      f = ScheduledFloor.ofCron(action.schedule(), action.minCapacity());
    } catch (IllegalArgumentException e) {
      throw new PlatformException(
          new PlatformException.Reason.InvalidRequest(String.valueOf(e.getMessage())));
    }
    if (action.maxCapacity() != null) {
      ScalingState state = scalingState(endpoint);
      int max = state.target().map(ScalingState.ScalableTarget::maxCapacity).orElse(-1);
      if (action.maxCapacity() != max) {
        throw new PlatformException(
            new PlatformException.Reason.InvalidRequest(
                "scheduled action "
                    + action.name()
                    + " MaxCapacity ("
                    + action.maxCapacity()
                    + ") differs from the deployed "
                    + max
                    + "; the local platform's scheduled actions set MinCapacity only: leave"
                    + " MaxCapacity out"));
      }
    }
    control.post(
        endpoint,
        "/scheduled-floor",
        new Views.Floor(action.name(), f.hhmm(), f.minCapacity()),
        Views.Scaling.class);
  }

  @Override
  public void deleteScheduledAction(String endpoint, String name) {
    control.post(
        endpoint, "/scheduled-floor/delete", new Views.FloorName(name), Views.Scaling.class);
  }

  /**
   * Endpoints in the state directory whose record attaches scaling but whose supervisor is gone.
   */
  @Override
  public List<OrphanedScaling> orphanedScaling() {
    return LocalOrphans.scan(control.root());
  }

  @Override
  public void setSuspended(String endpoint, SuspendedState state) {
    control.post(
        endpoint,
        "/suspended",
        new Views.Suspended(
            state.dynamicScalingIn(), state.dynamicScalingOut(), state.scheduledScaling()),
        Views.Scaling.class);
  }

  /**
   * The calls the endpoint's control API answered since its supervisor started, per {@code METHOD
   * /path}, and under {@code "METHOD /path throttled"} how many of them it throttled: what a
   * measurement reads to count the calls a command made on the local API.
   */
  public java.util.Map<String, Long> controlCalls(String endpoint) {
    Views.Calls c = control.get(endpoint, "/calls", Views.Calls.class);
    java.util.Map<String, Long> out = new java.util.TreeMap<>(c.calls());
    c.throttles().forEach((route, n) -> out.put(route + " throttled", n));
    return out;
  }

  @Override
  public void setDesiredInstances(String endpoint, int count) {
    control.post(endpoint, "/desired", new Views.Desired(count), Views.Describe.class);
  }

  @Override
  public List<InstanceLog> instanceLogs(String endpoint, Instant since) {
    control.record(endpoint);
    Path dir = LocalState.instancesDir(LocalState.endpointDir(control.root(), endpoint));
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<InstanceLog> logs = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".log")).toList()) {
        List<InstanceLog.LogLine> lines = new ArrayList<>();
        String text = Files.readString(f);
        // only whole lines: the instance may be writing the last one right now
        String whole = text.substring(0, text.lastIndexOf('\n') + 1);
        for (String json : whole.split("\n")) {
          if (!json.isBlank()) {
            InstanceProcess.LogEntry e =
                ArtifactCodec.mapper().readValue(json, InstanceProcess.LogEntry.class);
            lines.add(new InstanceLog.LogLine(e.at(), e.message()));
          }
        }
        if (!lines.isEmpty() && !lines.getFirst().at().isBefore(since)) {
          String id = f.getFileName().toString().replaceFirst("\\.log$", "");
          logs.add(new InstanceLog(id, lines.getFirst().at(), lines));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    logs.sort(Comparator.comparing(InstanceLog::firstEventAt));
    return logs;
  }

  @Override
  public MetricSeries metric(String endpoint, MetricQuery q) {
    Views.Points p =
        control.get(
            endpoint,
            "/metric?metric="
                + q.metric().name()
                + "&statistic="
                + q.statistic().name()
                + "&period_ms="
                + q.period().toMillis()
                + "&start_ms="
                + q.start().toEpochMilli()
                + "&end_ms="
                + q.end().toEpochMilli(),
            Views.Points.class);
    return new MetricSeries(
        q,
        p.points().stream()
            .map(pt -> new MetricSeries.Datapoint(Instant.ofEpochMilli((long) pt[0]), pt[1]))
            .toList());
  }

  @Override
  public OptionalInt containerQueueBound(String endpoint) {
    return OptionalInt.of(control.record(endpoint).config().queueMaxDepth());
  }

  @Override
  public Invoker invoker(String endpoint, Transport transport) {
    LocalState.EndpointRecord r = control.live(endpoint);
    return Invokers.create(
        new InvokerTarget(
            transport,
            endpoint,
            URI.create("http://127.0.0.1:" + r.routerPort()),
            "us-east-1",
            REQUEST_TIMEOUT,
            NanoClock.SYSTEM,
            Map.of()));
  }

  /** The router's base URL of a live endpoint. */
  public URI routerUri(String endpoint) {
    return URI.create("http://127.0.0.1:" + control.live(endpoint).routerPort());
  }

  @Override
  public void close() {
    // nothing held: every call opens and closes its own connection
  }

  /** The supervisor publishes these whenever scaling is attached. */
  private static String attached(@Nullable String value, String field) {
    if (value == null) {
      throw new IllegalStateException(
          "the supervisor reports scaling attached but no " + field + "; restart the endpoint");
    }
    return value;
  }
}
