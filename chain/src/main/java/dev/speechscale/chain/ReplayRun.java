package dev.speechscale.chain;

import dev.speechscale.loadgen.ClosedLoopDriver;
import dev.speechscale.loadgen.JsonlEventLog;
import dev.speechscale.loadgen.OpenLoopDriver;
import dev.speechscale.loadgen.OpenLoopResult;
import dev.speechscale.loadgen.OpenLoopSpec;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.Shard;
import dev.speechscale.loadgen.ShardLog;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.Transport;
import dev.speechscale.simulator.Traffic;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * {@code replay}, the live side: drives a deployed endpoint open loop with a trace, sending at
 * exactly the arrival times the simulator draws for the same trace and seed (Poisson within each
 * interval), timing every request from its intended send time, and reads the endpoint's desired and
 * in-service instance counts throughout. The policies act on their own; this changes nothing on the
 * endpoint (no freeze, no desired count), so there is nothing to restore. It stops by itself when
 * the trace ends and every request sent has ended.
 *
 * <p>The start waits for the next multiple of the longest deployed alarm period on the wall clock:
 * the platform's periods are epoch aligned, and a simulation of the same trace starts its periods
 * at 0, so an unaligned start would shift detection by up to a period.
 */
public final class ReplayRun {
  private ReplayRun() {}

  /**
   * What to replay.
   *
   * @param model the model; the endpoint is {@code speech-<model>}
   * @param traffic the trace, as the simulator reads it
   * @param surgeStartS seconds from the trace's start to its surge, or {@code null} without one
   * @param startInService the instances the prediction starts with; the live fleet must have as
   *     many in service and desired when the trace starts (0: not checked)
   * @param load how requests are sent
   * @param sampling how the fleet is read and the requests logged
   * @param warmup the unmeasured load before the trace
   */
  public record Options(
      String model,
      Traffic traffic,
      Double surgeStartS,
      int startInService,
      Load load,
      Sampling sampling,
      Warmup warmup) {}

  /**
   * How requests are sent.
   *
   * @param transport how requests are sent
   * @param texts the text pool
   * @param seed seeds the arrivals (as the simulator draws them) and the text order
   * @param maxInFlight the client's bound (an arrival past it is dropped and counted)
   * @param shard which of the trace's arrivals this process sends
   */
  public record Load(
      Transport transport, List<String> texts, long seed, int maxInFlight, Shard shard) {
    /** The open loop's usual bound on outstanding requests. */
    public static final int MAX_IN_FLIGHT = 4096;

    public Load {
      Objects.requireNonNull(transport, "transport");
      Objects.requireNonNull(shard, "shard");
      texts = List.copyOf(texts);
    }
  }

  /**
   * How the fleet is read and the requests logged.
   *
   * @param every how often the instance counts are read
   * @param align wait for the next multiple of the longest alarm period before starting
   * @param events a JSONL file for every live request (as {@code qmax --events}), or {@code null};
   *     a shard of several writes {@link Shard#eventLog} of it and the HdrHistogram log beside
   * @param startAt when the trace starts (on the first alarm-period boundary at or after it when
   *     aligning), or {@code null} for the next boundary after the warm-up
   */
  public record Sampling(
      Duration every, boolean align, @Nullable Path events, @Nullable Instant startAt) {
    public Sampling {
      if (!every.isPositive()) {
        throw new ChainException(
            "the capacity sampling period (" + every + ") must be positive; 200ms is usual");
      }
    }
  }

  /**
   * Load before the trace (and before the alignment wait), not measured: the instance then serves
   * warm, as the ladder that X_sat comes from measured it (qmax warms up the same way).
   *
   * @param duration how long; zero for none
   * @param concurrency the warm-up's closed-loop N
   */
  public record Warmup(Duration duration, int concurrency) {
    public Warmup {
      Objects.requireNonNull(duration, "warmup");
    }
  }

  /**
   * Sends the warm-up's closed-loop load through its own connections and keeps nothing of it. A
   * freshly deployed instance is JIT-cold: in the quickstart replays of 2026-12-01 the one instance
   * served 10–11 req/s in the surge's first 15 s and 13–14 by its end, against the warm ladder's
   * 13–16, so the measured shed was 5–6 points above a prediction that uses the warm X_sat.
   */
  private static @Nullable WarmupSpeed warmUp(
      Platform platform, String endpoint, Options o, NanoClock nanos, Consumer<String> progress) {
    if (!o.warmup().duration().isPositive()) {
      return null;
    }
    progress.accept(
        String.format(
            Locale.ROOT,
            "replay: warm-up: N=%d for %d s, not measured, so the trace does not start on a cold"
                + " instance",
            o.warmup().concurrency(),
            o.warmup().duration().toSeconds()));
    WarmupSpeed.Recorder recorder = new WarmupSpeed.Recorder();
    long start;
    try (Invoker invoker = platform.invoker(endpoint, o.load().transport());
        ClosedLoopDriver warm =
            new ClosedLoopDriver(
                invoker, TextPool.shuffled(o.load().texts(), o.load().seed()), nanos, recorder)) {
      start = nanos.nanoTime();
      warm.run(-1, -1, o.warmup().concurrency(), o.warmup().duration());
    }
    WarmupSpeed speed = recorder.speed(o.warmup().concurrency(), start, nanos.nanoTime());
    if (speed != null) {
      progress.accept(
          String.format(
              Locale.ROOT,
              "replay: the warm-up's second half served %.2f req/s at N=%d (%d requests in %.1f"
                  + " s)",
              speed.servedPerSecond(),
              speed.concurrency(),
              speed.requests(),
              speed.seconds()));
    }
    return speed;
  }

  /**
   * Replays the trace against the live endpoint.
   *
   * @throws ChainException when the endpoint is not in service
   */
  public static LiveReplay run(
      Platform platform, Options o, Clock clock, NanoClock nanos, Consumer<String> progress) {
    platform = RetryingPlatform.of(platform, clock); // backs off on throttling
    String endpoint = "speech-" + o.model();
    requireReady(platform, endpoint, o);
    WarmupSpeed warmup = warmUp(platform, endpoint, o, nanos, progress);
    Duration align = o.sampling().align() ? longestAlarmPeriod(platform, endpoint) : Duration.ZERO;
    Instant startAt = o.sampling().startAt();
    if (startAt != null) {
      waitForStart(startAt, align, clock, progress);
    } else {
      waitForBoundary(align, clock, progress);
    }
    Shard shard = o.load().shard();
    Instant startedAt = clock.instant();
    long t0 = nanos.nanoTime();
    // only one process reads the fleet: N shards polling DescribeEndpoint would be throttled
    CapacitySampler sampler =
        new CapacitySampler(platform, endpoint, nanos, t0, o.sampling().every());
    Thread sampling =
        shard.index() == 0
            ? Thread.ofPlatform().daemon().name("replay-sampler").start(sampler)
            : null;
    ConcurrentLinkedQueue<Long> dropped = new ConcurrentLinkedQueue<>();
    RequestListener drops = droppedInto(dropped);
    Path eventPath = o.sampling().events() == null ? null : shard.eventLog(o.sampling().events());
    JsonlEventLog events = eventPath == null ? null : JsonlEventLog.open(eventPath, nanos, clock);
    ShardLog shardLog = shard.whole() ? null : new ShardLog(shard);
    RequestListener listener = events == null ? drops : RequestListener.both(drops, events);
    if (shardLog != null) {
      listener = RequestListener.both(listener, shardLog);
    }
    OpenLoopResult r;
    try {
      r = drive(platform, endpoint, o, nanos, listener, progress);
    } finally {
      if (events != null) {
        events.close();
      }
      sampler.stop();
      if (sampling != null) {
        try {
          sampling.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    if (shardLog != null && eventPath != null) {
      // written after the event log is closed: shard 0 takes a shard as done when this log's
      // arrivals match the event log's lines
      shardLog.write(Shard.histogramLog(eventPath), spec(o), r);
      progress.accept(
          "replay: shard "
              + shard
              + " wrote "
              + eventPath
              + " and "
              + Shard.histogramLog(eventPath));
    }
    if (sampler.failures() > 0) {
      progress.accept(
          "replay: "
              + sampler.failures()
              + " capacity reads failed (last: "
              + sampler.lastFailure()
              + "); the instance series has gaps there");
    }
    List<LiveReplay.Request> requests = LiveReplay.requests(r.events(), dropped, t0);
    return new LiveReplay(
        new LiveReplay.Origin(endpoint, platform.name(), startedAt, align),
        new LiveReplay.Schedule(
            o.traffic().description(),
            o.traffic().durationSeconds(),
            o.surgeStartS(),
            o.load().seed(),
            o.sampling().every()),
        requests,
        sampler.samples(),
        r.late(),
        warmup);
  }

  /** A listener that keeps the intended send time of every arrival the driver dropped. */
  private static RequestListener droppedInto(ConcurrentLinkedQueue<Long> dropped) {
    return new RequestListener() {
      @Override
      public void completed(RequestEvent event) {}

      @Override
      public void dropped(int phaseIndex, long seq, long intendedNanos) {
        dropped.add(intendedNanos);
      }
    };
  }

  private static void requireReady(Platform platform, String endpoint, Options o) {
    EndpointDescription d =
        InService.require(
            platform,
            endpoint,
            ", not IN_SERVICE; deploy it (speech-infra deploy --model "
                + o.model()
                + ") and replay again");
    if (o.startInService() > 0
        && (d.currentInstances() != o.startInService()
            || d.desiredInstances() != o.startInService())) {
      throw new ChainException(
          endpoint
              + " has "
              + d.currentInstances()
              + " in service and "
              + d.desiredInstances()
              + " desired, but the prediction starts from "
              + o.startInService()
              + "; wait for the fleet to settle at its floor (the step scale-in acts after 3"
              + " quiet scale-in periods) and replay again");
    }
  }

  /**
   * Sleeps until {@code startAt}, or the first multiple of {@code align} at or after it: computed
   * from {@code startAt} alone, so every shard given the same instant starts at the same moment.
   *
   * @throws ChainException when that moment has passed (the warm-up outlasted it)
   */
  static void waitForStart(
      Instant startAt, Duration align, Clock clock, Consumer<String> progress) {
    long start = startOn(startAt, align).toEpochMilli();
    long now = clock.millis();
    if (now > start) {
      throw new ChainException(
          Flags.START_AT
              + " "
              + startAt
              + ": the trace's start "
              + Instant.ofEpochMilli(start)
              + " passed "
              + (now - start)
              + " ms ago (after the warm-up); give every shard a later "
              + Flags.START_AT);
    }
    progress.accept(
        String.format(
            Locale.ROOT,
            "replay: waiting %.1f s for the common start %s",
            (start - now) / 1000.0,
            Instant.ofEpochMilli(start)));
    while (clock.millis() < start) {
      Sleeper.sleep(Duration.ofMillis(Math.max(1, Math.min(500, start - clock.millis()))));
    }
  }

  /** {@code startAt}, or the first multiple of {@code align} at or after it when positive. */
  static Instant startOn(Instant startAt, Duration align) {
    if (!align.isPositive()) {
      return startAt;
    }
    long periodMs = align.toMillis();
    return Instant.ofEpochMilli(Math.ceilDiv(startAt.toEpochMilli(), periodMs) * periodMs);
  }

  /** Sleeps until the next multiple of {@code align} on the wall clock (none when zero). */
  private static void waitForBoundary(Duration align, Clock clock, Consumer<String> progress) {
    if (align.isPositive()) {
      long periodMs = align.toMillis();
      long now = clock.millis();
      long next = Math.floorDiv(now, periodMs) * periodMs + periodMs;
      progress.accept(
          String.format(
              Locale.ROOT,
              "replay: waiting %.1f s for the next %d s alarm-period boundary",
              (next - now) / 1000.0,
              align.toSeconds()));
      while (clock.millis() < next) {
        Sleeper.sleep(Duration.ofMillis(Math.max(1, Math.min(500, next - clock.millis()))));
      }
    }
  }

  /** Sends the trace's arrivals open loop; returns when the last one was answered. */
  private static OpenLoopResult drive(
      Platform platform,
      String endpoint,
      Options o,
      NanoClock nanos,
      RequestListener listener,
      Consumer<String> progress) {
    try (Invoker invoker = platform.invoker(endpoint, o.load().transport());
        OpenLoopDriver driver =
            new OpenLoopDriver(
                invoker, TextPool.shuffled(o.load().texts(), o.load().seed()), nanos, listener)) {
      progress.accept(
          String.format(
              Locale.ROOT,
              "replay: %s against %s, the simulator's arrivals for seed %d (%.0f expected)",
              o.traffic().description(),
              endpoint,
              o.load().seed(),
              o.traffic().expectedArrivals()));
      if (!o.load().shard().whole()) {
        progress.accept(
            "replay: shard "
                + o.load().shard()
                + " sends arrivals "
                + o.load().shard().index()
                + ", "
                + (o.load().shard().index() + o.load().shard().count())
                + ", ... of them (every "
                + o.load().shard().count()
                + " from "
                + o.load().shard().index()
                + ")");
      }
      try (Traffic.Arrivals arrivals = o.traffic().arrivals(o.load().seed())) {
        return driver.run(spec(o), arrivals::nextSeconds, o.load().shard());
      }
    }
  }

  /** The trace as one open-loop phase; the arrivals come from the trace itself. */
  private static OpenLoopSpec spec(Options o) {
    long seconds = o.traffic().durationSeconds();
    return new OpenLoopSpec(
        List.of(
            new OpenLoopSpec.Phase(
                "trace", o.traffic().expectedArrivals() / seconds, Duration.ofSeconds(seconds))),
        OpenLoopSpec.Arrivals.POISSON,
        o.load().maxInFlight(),
        o.load().seed(),
        Duration.ofMillis(5));
  }

  /** The longest period among the deployed alarms, zero when no scaling is attached. */
  static Duration longestAlarmPeriod(Platform platform, String endpoint) {
    return platform.scalingState(endpoint).alarms().stream()
        .map(Alarm::periodSeconds)
        .max(Integer::compare)
        .map(Duration::ofSeconds)
        .orElse(Duration.ZERO);
  }
}
