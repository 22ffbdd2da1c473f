package dev.speechscale.chain;

import dev.speechscale.artifacts.Artifact;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.EnforcedCpu;
import dev.speechscale.artifacts.Pairing;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.ToolVersion;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.loadgen.ClosedLoopDriver;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.InstanceLog;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.Physics;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.ScaleOutStage;
import dev.speechscale.platform.StageMarker;
import dev.speechscale.platform.Transport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

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
      Transport transport,
      Integer probeConcurrency,
      Duration recoveryWindow,
      Duration settle,
      Duration timeout,
      boolean allowConfigMismatch,
      List<String> texts,
      long seed,
      String command,
      Map<String, Object> parameters) {}

  static final double RECOVERY_FACTOR = 1.25;
  static final int MIN_RECOVERY_SAMPLES = 5;

  /** Measures one scale-out; returns the artifact (derived values recomputed). */
  public static TtotalArtifact run(
      Platform platform, Options o, ChainClock clocks, Consumer<String> progress) {
    Clock clock = clocks.wall();
    String endpoint = "speech-" + o.model();
    RetryingPlatform control = RetryingPlatform.of(platform, clock);
    platform = control; // every control-plane call backs off on throttling
    Instant began = clock.instant();
    Physics physics = platform.physics(endpoint);
    Duration timeout =
        o.timeout() != null ? o.timeout() : Timeouts.recovery(physics, o.recoveryWindow());
    QmaxArtifact q = o.qmax();
    if (!q.transport().equals(o.transport().label())) {
      throw new ChainException(
          "the probe would use "
              + o.transport().label()
              + " but the ladder"
              + " in "
              + o.qmaxFile()
              + " was measured on "
              + q.transport()
              + "; recovery is judged"
              + " against the ladder, so use --transport "
              + q.transport()
              + " or re-measure qmax");
    }
    Fingerprint fp = platform.fingerprint(endpoint);
    DeployedConfig deployed =
        new DeployedConfig(fp.instanceType(), fp.imageDigest(), fp.containerEnv());
    Pairing.Result pair =
        Pairing.fingerprints(
            "qmax " + o.qmaxFile(),
            q.deployedConfig(),
            "endpoint " + endpoint,
            deployed,
            o.allowConfigMismatch());
    if (!pair.ok()) {
      throw new ChainException(pair.refusal());
    }
    if (pair.warning() != null) {
      progress.accept("warning: " + pair.warning());
    }
    EnforcedCpu cpu =
        CpuLimitCheck.requireSameAsLadder(
            platform, endpoint, q, o.qmaxFile(), o.allowConfigMismatch(), progress);
    int n = probe(q, o.probeConcurrency(), o.qmaxFile());
    double target = RECOVERY_FACTOR * p95At(q, n / 2);
    List<String> notes = new ArrayList<>();
    Map<String, TtotalArtifact.TimelineEntry> timeline = new LinkedHashMap<>();
    CopyOnWriteArrayList<Sample> samples = new CopyOnWriteArrayList<>();
    int from;
    try (Freeze freeze =
            Freeze.pin(platform, endpoint, 1, Timeouts.settle(physics), clock, progress);
        Invoker invoker = platform.invoker(endpoint, o.transport());
        ClosedLoopDriver probe =
            new ClosedLoopDriver(
                invoker,
                TextPool.shuffled(o.texts(), o.seed()),
                clocks.monotonic(),
                listener(samples, clock))) {
      from = 1;
      Thread load =
          Thread.ofPlatform()
              .daemon()
              .name("ttotal-probe")
              .start(() ->
                  probe.run(
                      0, 0, n, timeout.plus(o.settle()).plus(o.recoveryWindow()).multipliedBy(2)));
      try {
        progress.accept(
            String.format(
                Locale.ROOT,
                "probe: %d concurrent on one instance for %s;"
                    + " recovered when p95 TTFAB <= %.1f ms (1.25 x ladder p95 at %d) over %s",
                n,
                o.settle(),
                target,
                n / 2,
                o.recoveryWindow()));
        Sleeper.sleep(o.settle());
        if (samples.isEmpty()) {
          throw new ChainException(
              "the probe completed no request in " + o.settle() + "; is the endpoint serving?");
        }
        Instant desiredSet = clock.instant();
        platform.setDesiredInstances(endpoint, from + 1);
        timeline.put(
            ScaleOutStage.DESIRED_SET.wireName(),
            entry(
                ScaleOutStage.DESIRED_SET.wireName(),
                desiredSet,
                "setDesiredInstances (UpdateEndpointWeightsAndCapacities) returned",
                false,
                "the clock starts here"));
        progress.accept(
            "desired " + (from + 1) + " set at " + desiredSet + "; waiting for the" + " stages");
        observe(
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
      } finally {
        probe.stop();
        try {
          load.join(Timeouts.loadDrain(physics));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    List<TtotalArtifact.TimelineEntry> ordered = monotone(timeline, notes);
    PolicyLag lag = PolicyLag.read(platform, endpoint);
    notes.add(ControlCalls.summary(control, began, endpoint));
    progress.accept(ControlCalls.summary(control, began, endpoint));
    notes.add(
        "trigger was a forced desired count under a scaling freeze, so the policy's own"
            + " detection lag is not in t_total_s; it is bounded separately ("
            + lag.source()
            + ") and t_total_with_policy_bound_s is what the planner sizes against");
    Map<String, Object> probeInfo = new LinkedHashMap<>();
    probeInfo.put("concurrency", n);
    probeInfo.put("half_concurrency", n / 2);
    probeInfo.put("p95_expected_before_ms", p95At(q, n));
    probeInfo.put("p95_recovered_target_ms", target);
    probeInfo.put("recovery_window_s", o.recoveryWindow().toMillis() / 1000.0);
    probeInfo.put("samples", samples.size());
    probeInfo.put("from_instances", from);
    probeInfo.put("to_instances", from + 1);
    return new TtotalArtifact(
            Artifact.SCHEMA_VERSION,
            ArtifactKind.TTOTAL.label(),
            ToolVersion.current(),
            clock.instant(),
            Provenance.capture(o.command(), o.parameters()).withCpuLimit(cpu),
            o.model(),
            endpoint,
            "force-desired",
            deployed,
            1,
            lag.seconds(),
            null,
            null,
            ordered,
            null,
            null,
            notes,
            probeInfo,
            null)
        .withDerived();
  }

  /** One probe completion. */
  record Sample(Instant at, double ttfabMs, boolean ok) {}

  private static RequestListener listener(List<Sample> samples, Clock clock) {
    return new RequestListener() {
      @Override
      public void completed(RequestEvent e) {
        samples.add(new Sample(clock.instant(), e.ok() ? e.ttfabNanos() / 1e6 : -1, e.ok()));
      }
    };
  }

  private static void observe(
      RetryingPlatform platform,
      String endpoint,
      int want,
      Instant desiredSet,
      Options o,
      Duration timeout,
      double target,
      List<Sample> samples,
      Map<String, TtotalArtifact.TimelineEntry> timeline,
      Clock clock,
      Consumer<String> progress) {
    Instant deadline = desiredSet.plus(timeout);
    Duration poll = platform.pollInterval(endpoint);
    Instant inService = null;
    int scanned = 0;
    while (clock.instant().isBefore(deadline)) {
      if (!timeline.containsKey(ScaleOutStage.READY.wireName())) {
        readLogs(platform, endpoint, desiredSet, timeline, progress);
      }
      if (inService == null && platform.describe(endpoint).currentInstances() >= want) {
        inService = clock.instant();
        timeline.put(
            ScaleOutStage.IN_SERVICE.wireName(),
            entry(
                ScaleOutStage.IN_SERVICE.wireName(),
                inService,
                "describe: in-service instance count reached " + want,
                true,
                "observed by polling every " + poll.toMillis() + " ms, so an upper bound"));
        progress.accept("in service at " + inService);
        readLogs(platform, endpoint, desiredSet, timeline, progress);
      }
      if (inService != null) {
        Optional<Instant> recovered =
            recovery(samples, inService, o.recoveryWindow(), target, clock.instant());
        if (recovered.isPresent()) {
          timeline.put(
              ScaleOutStage.TRAFFIC_RECOVERED.wireName(),
              entry(
                  ScaleOutStage.TRAFFIC_RECOVERED.wireName(),
                  recovered.get(),
                  "client-side probe p95 recovery",
                  true,
                  String.format(
                      Locale.ROOT,
                      "probe p95 TTFAB held at or under %.1f ms across the following %s",
                      target,
                      o.recoveryWindow())));
          progress.accept("traffic recovered at " + recovered.get());
          return;
        }
      }
      scanned++;
      platform.pause(poll);
    }
    throw new ChainException(
        "no recovery within "
            + timeout
            + " of desired_set ("
            + (inService == null
                ? "the new instance never came into service"
                : "in service at " + inService + " but probe p95 stayed above the target")
            + "); stages seen: "
            + timeline.keySet()
            + " after "
            + scanned
            + " polls");
  }

  /** The first completion at or after in-service whose full forward window recovered. */
  static Optional<Instant> recovery(
      List<Sample> samples, Instant inService, Duration window, double targetMs, Instant now) {
    List<Sample> after = samples.stream().filter(s -> !s.at().isBefore(inService)).toList();
    for (int i = 0; i < after.size(); i++) {
      Instant start = after.get(i).at();
      Instant end = start.plus(window);
      if (end.isAfter(now)) {
        return Optional.empty();
      }
      List<Sample> in =
          after.subList(i, after.size()).stream().filter(s -> s.at().isBefore(end)).toList();
      if (in.size() >= MIN_RECOVERY_SAMPLES
          && in.stream().allMatch(Sample::ok)
          && Percentile.of(in.stream().mapToDouble(Sample::ttfabMs).toArray(), 95) <= targetMs) {
        return Optional.of(start);
      }
    }
    return Optional.empty();
  }

  private static void readLogs(
      Platform platform,
      String endpoint,
      Instant desiredSet,
      Map<String, TtotalArtifact.TimelineEntry> timeline,
      Consumer<String> progress) {
    List<InstanceLog> logs = platform.instanceLogs(endpoint, desiredSet);
    if (logs.isEmpty()) {
      return;
    }
    InstanceLog log = logs.getFirst();
    if (!timeline.containsKey(ScaleOutStage.INSTANCE_LOGGING.wireName())) {
      timeline.put(
          ScaleOutStage.INSTANCE_LOGGING.wireName(),
          entry(
              ScaleOutStage.INSTANCE_LOGGING.wireName(),
              log.firstEventAt(),
              "log stream " + log.instanceId() + ": first event",
              true,
              "upper bound on provisioning and image pull, which a container cannot time itself"));
      progress.accept("instance " + log.instanceId() + " logging at " + log.firstEventAt());
    }
    for (StageMarker m : StageMarker.in(log)) {
      if (!timeline.containsKey(m.stage())) {
        timeline.put(
            m.stage(),
            entry(
                m.stage(),
                m.at(),
                String.format(
                    Locale.ROOT, "container log marker (elapsed_s=%.3f)", m.elapsedSeconds()),
                false,
                null));
        if (m.stage().equals(ScaleOutStage.FRAMEWORK_INIT.wireName())) {
          long ms = Math.round(m.elapsedSeconds() * 1000);
          timeline.put(
              ScaleOutStage.CONTAINER_STARTED.wireName(),
              entry(
                  ScaleOutStage.CONTAINER_STARTED.wireName(),
                  m.at().minusMillis(ms),
                  "derived: framework_init minus its elapsed_s",
                  true,
                  String.format(
                      Locale.ROOT,
                      "reconstructed as framework_init minus elapsed_s=%.3f",
                      m.elapsedSeconds())));
        }
      }
    }
  }

  /**
   * The observed stages in semantic order, each at or after the one before: a stage observed
   * earlier than its predecessor (a container that started before its log stream's first line, say)
   * is moved to its predecessor's time and marked bounded, so consecutive durations are never
   * negative and sum exactly to the total.
   */
  static List<TtotalArtifact.TimelineEntry> monotone(
      Map<String, TtotalArtifact.TimelineEntry> timeline, List<String> notes) {
    List<TtotalArtifact.TimelineEntry> out = new ArrayList<>();
    Instant previous = null;
    String previousStage = null;
    for (String stage : TtotalArtifact.STAGES) {
      TtotalArtifact.TimelineEntry e = timeline.get(stage);
      if (e == null) {
        continue;
      }
      if (previous != null && e.at().isBefore(previous)) {
        notes.add(
            String.format(
                Locale.ROOT,
                "%s was observed %d ms before %s; it is placed at" + " %s (bounded)",
                stage,
                Duration.between(e.at(), previous).toMillis(),
                previousStage,
                previousStage));
        e =
            new TtotalArtifact.TimelineEntry(
                stage,
                previous,
                e.source(),
                true,
                (e.note() == null ? "" : e.note() + "; ")
                    + "moved to "
                    + previousStage
                    + "'s time: observed "
                    + Duration.between(e.at(), previous).toMillis()
                    + " ms earlier");
      }
      out.add(e);
      previous = e.at();
      previousStage = stage;
    }
    return out;
  }

  private static TtotalArtifact.TimelineEntry entry(
      String stage, Instant at, String source, boolean bounded, String note) {
    return new TtotalArtifact.TimelineEntry(stage, at, source, bounded, note);
  }

  /** The probe's N: given and checked, or the largest even usable rung ≤ Q_max with its half. */
  static int probe(QmaxArtifact q, Integer requested, String file) {
    TreeSet<Integer> usable = new TreeSet<>();
    for (QmaxStep s : q.steps()) {
      if (s.isUsable() && s.ttfabP95Ms() != null) {
        usable.add(s.concurrency());
      }
    }
    if (requested != null) {
      if (requested < 2
          || requested % 2 != 0
          || !usable.contains(requested)
          || !usable.contains(requested / 2)) {
        throw new ChainException(
            "missing recovery rungs: --probe-concurrency "
                + requested
                + " needs usable rungs at "
                + requested
                + " and "
                + requested / 2
                + " in "
                + file
                + " (usable rungs: "
                + usable
                + "); pick another N or re-run qmax with both rungs");
      }
      return requested;
    }
    int qMax = q.qMax() == null ? 0 : q.qMax();
    for (int n : usable.descendingSet()) {
      if (n <= qMax && n >= 2 && n % 2 == 0 && usable.contains(n / 2)) {
        return n;
      }
    }
    throw new ChainException(
        "missing recovery rungs: "
            + file
            + " has no usable even rung N <="
            + " Q_max ("
            + qMax
            + ") whose half is also a usable rung (usable rungs: "
            + usable
            + "); re-run qmax with rungs like 2, 4, 8");
  }

  /** The ladder's p95 TTFAB at rung {@code n} (the worst across runs). */
  static double p95At(QmaxArtifact q, int n) {
    return q.steps().stream()
        .filter(s -> s.concurrency() == n && s.isUsable() && s.ttfabP95Ms() != null)
        .mapToDouble(QmaxStep::ttfabP95Ms)
        .max()
        .orElseThrow(() -> new ChainException("the ladder has no usable rung at " + n));
  }
}
