package dev.speechscale.chain;

import dev.speechscale.artifacts.NewInstanceService;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.platform.InstanceLog;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.ResponseBreakdown;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.ScaleOutStage;
import dev.speechscale.platform.StageMarker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * ttotal's observation of one scale-out: the probe's samples, the stages as the platform and the
 * instance's log report them, traffic recovery, and the timeline made monotone.
 */
final class ScaleOutObserver {
  private ScaleOutObserver() {}

  /**
   * One probe completion.
   *
   * @param at when it completed
   * @param ttfabMs its TTFAB (-1 when it failed)
   * @param ok whether it succeeded
   * @param sentAt when it was sent
   * @param instance the instance that served it, when the platform said
   * @param serviceMs its response time less the server's queue wait (-1 when unknown or failed)
   */
  record Sample(
      Instant at,
      double ttfabMs,
      boolean ok,
      Instant sentAt,
      @Nullable String instance,
      double serviceMs) {
    /** A completion that names no instance (sent at its completion, for tests of recovery). */
    Sample(Instant at, double ttfabMs, boolean ok) {
      this(at, ttfabMs, ok, at, null, -1);
    }
  }

  static RequestListener listener(List<Sample> samples, Clock clock) {
    return new RequestListener() {
      @Override
      public void completed(RequestEvent e) {
        Instant at = clock.instant();
        long responseNanos = e.completedNanos() - e.sentNanos();
        ResponseBreakdown b = e.breakdown();
        double service =
            e.ok() && b.hasQueueWait() ? responseNanos / 1e6 - b.queueWaitUs() / 1000.0 : -1;
        samples.add(
            new Sample(
                at,
                e.ok() ? e.ttfabNanos() / 1e6 : -1,
                e.ok(),
                at.minusNanos(responseNanos),
                b.instance(),
                service));
      }
    };
  }

  /**
   * How the new instance served against the old one per window since in service ({@link
   * NewInstanceService}), from the samples that name their instance; {@code null} when none does
   * (the platform does not say) or a stage is missing.
   */
  static @Nullable NewInstanceService newInstance(
      List<Sample> samples, @Nullable Instant desiredSet, @Nullable Instant inService) {
    if (desiredSet == null || inService == null) {
      return null;
    }
    List<NewInstanceService.Served> served = new ArrayList<>();
    Instant last = inService;
    for (Sample s : samples) {
      if (s.at().isAfter(last)) {
        last = s.at();
      }
      String instance = s.instance();
      if (instance == null || !(s.serviceMs() >= 0)) {
        continue;
      }
      served.add(
          new NewInstanceService.Served(
              Duration.between(inService, s.sentAt()).toNanos() / 1e9,
              instance,
              s.serviceMs(),
              s.sentAt().isBefore(desiredSet)));
    }
    if (served.isEmpty()) {
      return null;
    }
    return NewInstanceService.of(served, Duration.between(inService, last).toNanos() / 1e9);
  }

  static void observe(
      RetryingPlatform platform,
      String endpoint,
      int want,
      Instant desiredSet,
      TtotalRun.Options o,
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
        markInService(timeline, inService, want, poll, progress);
        readLogs(platform, endpoint, desiredSet, timeline, progress);
      }
      if (inService != null) {
        Optional<Instant> recovered =
            recovery(samples, inService, o.timing().recoveryWindow(), target, clock.instant());
        if (recovered.isPresent()) {
          markRecovered(timeline, recovered.get(), target, o.timing().recoveryWindow(), progress);
          holdPastInService(
              platform, endpoint, inService, o.timing().newInstanceFor(), clock, progress);
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

  /** Keeps the probe running until {@code inService + span}: the new instance's windows. */
  private static void holdPastInService(
      RetryingPlatform platform,
      String endpoint,
      Instant inService,
      Duration span,
      Clock clock,
      Consumer<String> progress) {
    Instant until = inService.plus(span);
    Duration left = Duration.between(clock.instant(), until);
    if (left.isNegative() || left.isZero()) {
      return;
    }
    progress.accept(
        "probing the new instance against the old one until "
            + span.toSeconds()
            + " s past in service ("
            + left.toSeconds()
            + " s more)");
    Duration poll = platform.pollInterval(endpoint);
    while (clock.instant().isBefore(until)) {
      platform.pause(poll);
    }
  }

  private static void markInService(
      Map<String, TtotalArtifact.TimelineEntry> timeline,
      Instant inService,
      int want,
      Duration poll,
      Consumer<String> progress) {
    mark(
        timeline,
        ScaleOutStage.IN_SERVICE.wireName(),
        inService,
        "describe: in-service instance count reached " + want,
        true,
        "observed by polling every " + poll.toMillis() + " ms, so an upper bound");
    progress.accept("in service at " + inService);
  }

  private static void markRecovered(
      Map<String, TtotalArtifact.TimelineEntry> timeline,
      Instant recovered,
      double target,
      Duration window,
      Consumer<String> progress) {
    mark(
        timeline,
        ScaleOutStage.TRAFFIC_RECOVERED.wireName(),
        recovered,
        "client-side probe p95 recovery",
        true,
        String.format(
            Locale.ROOT,
            "probe p95 TTFAB held at or under %.1f ms across the following %s",
            target,
            window));
    progress.accept("traffic recovered at " + recovered);
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
      if (in.size() >= TtotalRun.MIN_RECOVERY_SAMPLES
          && in.stream().allMatch(Sample::ok)
          && Percentile.of(in.stream().mapToDouble(Sample::ttfabMs).toArray(), 95) <= targetMs) {
        return Optional.of(start);
      }
    }
    return Optional.empty();
  }

  static void readLogs(
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
      mark(
          timeline,
          ScaleOutStage.INSTANCE_LOGGING.wireName(),
          log.firstEventAt(),
          "log stream " + log.instanceId() + ": first event",
          true,
          "upper bound on provisioning and image pull, which a container cannot time itself");
      progress.accept("instance " + log.instanceId() + " logging at " + log.firstEventAt());
    }
    for (StageMarker m : StageMarker.in(log)) {
      if (!timeline.containsKey(m.stage())) {
        mark(
            timeline,
            m.stage(),
            m.at(),
            String.format(Locale.ROOT, "container log marker (elapsed_s=%.3f)", m.elapsedSeconds()),
            false);
        if (m.stage().equals(ScaleOutStage.FRAMEWORK_INIT.wireName())) {
          long ms = Math.round(m.elapsedSeconds() * 1000);
          mark(
              timeline,
              ScaleOutStage.CONTAINER_STARTED.wireName(),
              m.at().minusMillis(ms),
              "derived: framework_init minus its elapsed_s",
              true,
              String.format(
                  Locale.ROOT,
                  "reconstructed as framework_init minus elapsed_s=%.3f",
                  m.elapsedSeconds()));
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

  /** Puts {@code stage}'s entry, which carries no note, into {@code timeline}. */
  private static void mark(
      Map<String, TtotalArtifact.TimelineEntry> timeline,
      String stage,
      Instant at,
      String source,
      boolean bounded) {
    mark(timeline, stage, at, source, bounded, null);
  }

  /** Puts {@code stage}'s entry into {@code timeline}. */
  private static void mark(
      Map<String, TtotalArtifact.TimelineEntry> timeline,
      String stage,
      Instant at,
      String source,
      boolean bounded,
      @Nullable String note) {
    timeline.put(stage, entry(stage, at, source, bounded, note));
  }

  static TtotalArtifact.TimelineEntry entry(
      String stage, Instant at, String source, boolean bounded, @Nullable String note) {
    return new TtotalArtifact.TimelineEntry(stage, at, source, bounded, note);
  }
}
