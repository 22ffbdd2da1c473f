package dev.speechscale.chain;

import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.EnforcedCpu;
import dev.speechscale.artifacts.Header;
import dev.speechscale.artifacts.HostSpeedLog;
import dev.speechscale.artifacts.NewInstanceService;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.Stamp;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.loadgen.ClosedLoopDriver;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.platform.HostSpeedProbe;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Physics;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.ScaleOutStage;
import dev.speechscale.platform.Transport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * {@code ttotal}: how long a real scale-out takes, stage by stage. A probe holds concurrency N on
 * one frozen instance; the clock starts ({@code desired_set}) immediately before desired capacity
 * is raised by one; the stages come from the platform (the new instance's log stream and its stage
 * markers, then in-service from describe); the clock stops at {@code traffic_recovered}, the first
 * moment after in-service whose full forward window holds probe p95 TTFAB within 1.25× the ladder's
 * p95 at N/2 (the split a second instance should produce). Desired capacity and the freeze are
 * restored on every exit path.
 */
public final class TtotalRun {
  private TtotalRun() {}

  /**
   * What to run.
   *
   * @param model the model
   * @param qmax the ladder it judges recovery against
   * @param qmaxFile its path, for messages
   * @param transport the probe's transport; must be the ladder's
   * @param probeConcurrency N, or {@code null} to pick the largest even usable rung ≤ Q_max whose
   *     half is a usable rung
   * @param recoveryWindow the forward window a recovery must hold for (60 s)
   * @param settle how long the probe runs before the trigger
   * @param timeout how long to wait for recovery after the trigger, or {@code null} to derive it
   *     from the platform ({@link Timeouts#recovery})
   * @param newInstanceFor how long past in service the probe runs at least, so that the new
   *     instance's service against the old one is seen window by window ({@link
   *     dev.speechscale.artifacts.NewInstanceService}; {@link #NEW_INSTANCE_FOR})
   * @param allowConfigMismatch pair a ladder of another fingerprint (warns)
   * @param texts the text pool
   * @param seed its shuffle seed
   * @param command the command line, for provenance
   * @param parameters effective parameters, for provenance
   */
  public record Options(
      String model,
      QmaxArtifact qmax,
      String qmaxFile,
      Probe probe,
      Timing timing,
      boolean allowConfigMismatch,
      String command,
      Map<String, Object> parameters) {}

  /**
   * How the probe load is driven.
   *
   * @param transport how each request is sent
   * @param concurrency the probe's N; {@code null}: chosen from the qmax ladder
   * @param texts the texts requests are drawn from
   * @param seed the texts' shuffle
   */
  public record Probe(
      Transport transport, @Nullable Integer concurrency, List<String> texts, long seed) {}

  /**
   * How long each phase of the measurement lasts.
   *
   * @param recoveryWindow the forward window a recovery must hold for
   * @param settle probe time before the trigger
   * @param timeout how long to wait for recovery; {@code null}: the platform's start-up bound plus
   *     the recovery window
   * @param newInstanceFor how long the new instance's service is watched past in service
   */
  public record Timing(
      Duration recoveryWindow,
      Duration settle,
      @Nullable Duration timeout,
      Duration newInstanceFor) {

    /** The platform's recovery bound and {@link #NEW_INSTANCE_FOR}. */
    public static Timing of(Duration recoveryWindow, Duration settle) {
      return new Timing(recoveryWindow, settle, null, NEW_INSTANCE_FOR);
    }
  }

  static final double RECOVERY_FACTOR = 1.25;

  /**
   * The probe runs at least this long past in service: a new local instance served ×1.3–1.7 the old
   * one's time for its first 15 s and ×1.04–1.10 at 45–60 s (runs p–s); run s watched it for 120 s
   * and it was warm after 60 (×1.00–1.04 per 15 s), so four 15 s windows show the cold start
   * (measurements/simulator-calibration.md, "Run s").
   */
  public static final Duration NEW_INSTANCE_FOR = Duration.ofSeconds(60);

  static final int MIN_RECOVERY_SAMPLES = 5;

  /** Measures one scale-out; returns the artifact (derived values recomputed). */
  public static TtotalArtifact run(
      Platform platform, Options o, NanoClock clocks, Consumer<String> progress) {
    Clock clock = clocks.wall();
    String endpoint = "speech-" + o.model();
    RetryingPlatform control = RetryingPlatform.of(platform, clock);
    platform = control; // every control-plane call backs off on throttling
    Instant began = clock.instant();
    Physics physics = platform.physics(endpoint);
    Duration timeout =
        o.timing().timeout() != null
            ? o.timing().timeout()
            : Timeouts.recovery(physics, o.timing().recoveryWindow());
    QmaxArtifact q = o.qmax();
    TtotalPreflight.Checked checked = TtotalPreflight.check(platform, endpoint, o, progress);
    DeployedConfig deployed = checked.deployed();
    EnforcedCpu cpu = checked.cpu();
    int n = TtotalPreflight.probe(q, o.probe().concurrency(), o.qmaxFile());
    double target = RECOVERY_FACTOR * TtotalPreflight.p95At(q, n / 2);
    List<String> notes = new ArrayList<>();
    List<Integer> unsettled = TtotalPreflight.unsettledOnly(q, n, n / 2);
    if (!unsettled.isEmpty()) {
      String w =
          "the probe N="
              + n
              + " and its recovery target (the N="
              + n / 2
              + " p95) use rung(s) "
              + unsettled
              + " that did not settle in the ladder (their windows disagreed or their TTFAB drifted): no"
              + " settled pair N,"
              + " N/2 exists in "
              + o.qmaxFile();
      progress.accept("warning: " + w);
      notes.add(w);
    }
    Map<String, TtotalArtifact.TimelineEntry> timeline = new LinkedHashMap<>();
    CopyOnWriteArrayList<ScaleOutObserver.Sample> samples = new CopyOnWriteArrayList<>();
    ScaleOut out =
        scaleOut(control, endpoint, o, clocks, timeout, n, target, samples, timeline, progress);
    int from = out.from();
    Instant inService = at(timeline, ScaleOutStage.IN_SERVICE);
    NewInstanceService fresh =
        ScaleOutObserver.newInstance(
            List.copyOf(samples), at(timeline, ScaleOutStage.DESIRED_SET), inService);
    if (fresh != null && out.hosts() != null && inService != null) {
      fresh = fresh.withHosts(out.hosts(), inService.toEpochMilli());
    }
    if (fresh != null) {
      progress.accept(fresh.summary());
    }
    List<TtotalArtifact.TimelineEntry> ordered = ScaleOutObserver.monotone(timeline, notes);
    PolicyLag lag = PolicyLag.read(platform, endpoint);
    notes.add(ControlCalls.summary(control, began, endpoint));
    progress.accept(ControlCalls.summary(control, began, endpoint));
    notes.add(
        "trigger was a forced desired count under a scaling freeze, so the policy's own"
            + " detection lag is not in t_total_s; it is bounded separately ("
            + lag.source()
            + ") and t_total_with_policy_bound_s is what the planner sizes against");
    return artifact(
        o,
        endpoint,
        clock,
        deployed,
        cpu,
        lag,
        ordered,
        notes,
        probeInfo(q, n, target, o, samples.size(), from),
        fresh);
  }

  private static @Nullable Instant at(
      Map<String, TtotalArtifact.TimelineEntry> timeline, ScaleOutStage stage) {
    TtotalArtifact.TimelineEntry e = timeline.get(stage.wireName());
    return e == null ? null : e.at();
  }

  private record ScaleOut(int from, @Nullable HostSpeedLog hosts) {}

  /**
   * Pins one instance, holds the probe at N on it, raises the desired count by one and observes the
   * stages until traffic recovers or {@code timeout} passes; restores the endpoint on every path.
   * Returns the instance count it started from and, when the new instance is probed past in
   * service, the hosts' speeds across the scale-out (the platform's host probe, started on one
   * instance so that its next launch host is the new instance's).
   */
  private static ScaleOut scaleOut(
      RetryingPlatform control,
      String endpoint,
      Options o,
      NanoClock clocks,
      Duration timeout,
      int n,
      double target,
      List<ScaleOutObserver.Sample> samples,
      Map<String, TtotalArtifact.TimelineEntry> timeline,
      Consumer<String> progress) {
    int from;
    HostSpeedLog hostLog = null;
    Clock clock = clocks.wall();
    Platform platform = control;
    Physics physics = platform.physics(endpoint);
    try (Freeze freeze =
            Freeze.pin(platform, endpoint, 1, Timeouts.settle(physics), clock, progress);
        HostSpeedProbe hosts =
            o.timing().newInstanceFor().isPositive()
                ? HostSpeedLogs.start(platform, endpoint, progress).orElse(null)
                : null;
        Invoker invoker = platform.invoker(endpoint, o.probe().transport());
        ClosedLoopDriver probe =
            new ClosedLoopDriver(
                invoker,
                TextPool.shuffled(o.probe().texts(), o.probe().seed()),
                clocks,
                ScaleOutObserver.listener(samples, clock))) {
      from = 1;
      Instant hostsFrom = clock.instant();
      Thread load =
          Thread.ofPlatform()
              .daemon()
              .name("ttotal-probe")
              .start(() ->
                  probe.run(
                      0,
                      0,
                      n,
                      timeout
                          .plus(o.timing().settle())
                          .plus(o.timing().recoveryWindow())
                          .multipliedBy(2)));
      try {
        Instant desiredSet =
            settleThenAddOne(
                platform, endpoint, o, n, target, from, samples, timeline, clock, progress);
        ScaleOutObserver.observe(
            control,
            endpoint,
            from + 1,
            desiredSet,
            o,
            timeout,
            target,
            samples,
            timeline,
            clock,
            progress);
        if (hosts != null) {
          hostLog =
              HostSpeedLogs.log(
                  hosts,
                  hostsFrom,
                  (int) Math.ceil(Duration.between(hostsFrom, clock.instant()).toMillis() / 1e3));
        }
      } finally {
        probe.stop();
        try {
          load.join(Timeouts.loadDrain(physics));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    return new ScaleOut(from, hostLog);
  }

  /** Lets the probe settle on one instance, then raises the desired count; the clock's start. */
  private static Instant settleThenAddOne(
      Platform platform,
      String endpoint,
      Options o,
      int n,
      double target,
      int from,
      List<ScaleOutObserver.Sample> samples,
      Map<String, TtotalArtifact.TimelineEntry> timeline,
      Clock clock,
      Consumer<String> progress) {
    progress.accept(
        String.format(
            Locale.ROOT,
            "probe: %d concurrent on one instance for %s;"
                + " recovered when p95 TTFAB <= %.1f ms (1.25 x ladder p95 at %d) over %s",
            n,
            o.timing().settle(),
            target,
            n / 2,
            o.timing().recoveryWindow()));
    Sleeper.sleep(o.timing().settle());
    if (samples.isEmpty()) {
      throw new ChainException(
          "the probe completed no request in "
              + o.timing().settle()
              + "; is the endpoint serving?");
    }
    Instant desiredSet = clock.instant();
    platform.setDesiredInstances(endpoint, from + 1);
    timeline.put(
        ScaleOutStage.DESIRED_SET.wireName(),
        ScaleOutObserver.entry(
            ScaleOutStage.DESIRED_SET.wireName(),
            desiredSet,
            "setDesiredInstances (UpdateEndpointWeightsAndCapacities) returned",
            false,
            "the clock starts here"));
    progress.accept(
        "desired " + (from + 1) + " set at " + desiredSet + "; waiting for the" + " stages");
    return desiredSet;
  }

  private static Map<String, Object> probeInfo(
      QmaxArtifact q, int n, double target, Options o, int samples, int from) {
    Map<String, Object> probeInfo = new LinkedHashMap<>();
    probeInfo.put("concurrency", n);
    probeInfo.put("half_concurrency", n / 2);
    probeInfo.put("p95_expected_before_ms", TtotalPreflight.p95At(q, n));
    probeInfo.put("p95_recovered_target_ms", target);
    probeInfo.put("recovery_window_s", o.timing().recoveryWindow().toMillis() / 1000.0);
    probeInfo.put("samples", samples);
    probeInfo.put("from_instances", from);
    probeInfo.put("to_instances", from + 1);
    return probeInfo;
  }

  private static TtotalArtifact artifact(
      Options o,
      String endpoint,
      Clock clock,
      DeployedConfig deployed,
      @Nullable EnforcedCpu cpu,
      PolicyLag lag,
      List<TtotalArtifact.TimelineEntry> ordered,
      List<String> notes,
      Map<String, Object> probeInfo,
      @Nullable NewInstanceService fresh) {
    return TtotalArtifact.measured(
        Header.of(
            ArtifactKind.TTOTAL,
            Stamp.current(
                clock.instant(),
                Provenance.capture(o.command(), o.parameters()).withCpuLimit(cpu))),
        o.model(),
        endpoint,
        "force-desired",
        deployed,
        lag.seconds(),
        ordered,
        notes,
        probeInfo,
        fresh);
  }
}
