package dev.speechscale.chain;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.HostSpeedLog;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.loadgen.Shard;
import dev.speechscale.platform.HostSpeedProbe;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.Transport;
import dev.speechscale.scaling.StepScaleIn;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.Policy;
import dev.speechscale.simulator.PolicyResult;
import dev.speechscale.simulator.SimulatorException;
import dev.speechscale.simulator.Traffic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The whole replay, for {@code tts-bench replay} and for the quickstart: build the simulation of
 * the endpoint as deployed, take the trace (or write the calibration trace), predict it, replay it
 * live with the same arrivals, and compare.
 */
public final class Replay {
  private Replay() {}

  /** Where the trace comes from. */
  public sealed interface TraceSource {
    /**
     * A trace file.
     *
     * @param file a {@code time_s,rps} or {@code arrival_s} CSV
     * @param surgeStartS where its surge starts
     */
    record File(Path file, double surgeStartS) implements TraceSource {
      public File {
        Objects.requireNonNull(file, "file");
      }
    }

    /**
     * The calibration trace for one instance's measured throughput, written to {@code writeTo}.
     *
     * @param writeTo where the CSV goes
     * @param quiet quiet period before the surge
     * @param surge the surge
     * @param fall quiet period after it
     */
    record Calibration(Path writeTo, Duration quiet, Duration surge, Duration fall)
        implements TraceSource {
      public Calibration {
        Objects.requireNonNull(writeTo, "writeTo");
      }
    }
  }

  /** What the prediction knows of the fleet's metrics before the trace starts. */
  public sealed interface History {
    /**
     * The live endpoint's own metric history, read back from its platform after the run ({@link
     * LiveHistory}): the prediction's alarms start with exactly the periods the live alarms had.
     */
    record Live() implements History {}

    /**
     * A simulated history: a quiet window at the trace's first rate, a fixed length, or none.
     *
     * @param preRoll what the simulator runs before t = 0
     */
    record Simulated(FleetSimulator.PreRoll preRoll) implements History {
      public Simulated {
        Objects.requireNonNull(preRoll, "preRoll");
      }
    }
  }

  /**
   * One replay, as {@code tts-bench replay} parses it and {@code quickstart} builds it; {@link
   * #commandLine()} runs it again (all but a refusal cost, which the inputs carry resolved).
   *
   * @param target the endpoint
   * @param inputs the artifacts
   * @param trace the trace
   * @param seed arrivals' seed
   * @param live how the live half runs
   * @param prediction what the prediction starts from
   * @param command the command line
   * @param parameters effective parameters
   */
  public record Request(
      Target target,
      ReplayPrediction.Inputs inputs,
      TraceSource trace,
      long seed,
      Live live,
      Prediction prediction,
      String command,
      Map<String, Object> parameters) {
    /** The arguments that run this replay again, after {@code tts-bench replay}. */
    public List<String> arguments() {
      Args args =
          new Args()
              .addAll(target.arguments())
              .add(Flags.PLAN, inputs.planFile())
              .add(Flags.QMAX, inputs.qmaxFile());
      inputs.ttotals().forEach(t -> args.add(Flags.TTOTAL, t.file()));
      switch (trace) {
        case TraceSource.File f ->
            args.add(Flags.TRACE, f.file())
                .add(Flags.SURGE_AT, Duration.ofMillis(Math.round(f.surgeStartS() * 1000)));
        case TraceSource.Calibration c ->
            args.add(Flags.CALIBRATION, c.writeTo())
                .add(Flags.QUIET, c.quiet())
                .add(Flags.SURGE, c.surge())
                .add(Flags.FALL, c.fall());
      }
      return args.add(Flags.SEED, seed)
          .add(Flags.METRIC_DELAY, prediction.metricDelay())
          .add(Flags.SAMPLE_EVERY, live.sampleEvery())
          .when(!live.align(), Flags.NO_ALIGN)
          .add(Flags.TRANSPORT, live.transport().label())
          .optional(Flags.TEXTS, live.texts())
          .optional(Flags.EVENTS, live.events())
          .optional(Flags.SHARD, live.sharding().shard().whole() ? null : live.sharding().shard())
          .optional(Flags.START_AT, live.sharding().startAt())
          .optional(
              Flags.SHARD_WAIT,
              live.sharding().mergeWait().equals(Sharding.DEFAULT_WAIT)
                  ? null
                  : live.sharding().mergeWait())
          .add(Flags.WARMUP, live.warmup())
          .add(
              Flags.INITIAL_INSTANCES,
              prediction.initialInstances().name().toLowerCase(Locale.ROOT))
          .add(Flags.PRE_ROLL, word(prediction.preRoll()))
          .add(Flags.SPEED, prediction.speed().name().toLowerCase(Locale.ROOT))
          .add(Flags.HOST_SPEED, prediction.hostSpeed().label())
          .words();
    }

    /** {@code tts-bench replay} with {@link #arguments()}. */
    public String commandLine() {
      return "tts-bench replay " + String.join(" ", arguments());
    }

    /** {@code --pre-roll}'s word for a history. */
    private static String word(History h) {
      return switch (h) {
        case History.Live l -> "live";
        case History.Simulated(FleetSimulator.PreRoll.Window w) -> "window";
        case History.Simulated(FleetSimulator.PreRoll.Fixed f) -> Args.duration(f.length());
        case History.Simulated s -> "0s";
      };
    }
  }

  /**
   * How the live half runs.
   *
   * @param transport the live requests' transport
   * @param texts one request text per line, or {@code null} for the built-in sentences
   * @param sampleEvery how often the live instance counts are read
   * @param align start on the next alarm-period boundary
   * @param events a JSONL file for every live request, or {@code null}
   * @param warmup closed-loop load before the trace, not measured (qmax's warm-up; a freshly
   *     deployed instance still serves slower than the ladder after it, which {@link
   *     Prediction#initialInstances} tells the prediction); zero for none
   * @param sharding which of the trace's arrivals this process sends, and when the trace starts
   */
  public record Live(
      Transport transport,
      @Nullable Path texts,
      Duration sampleEvery,
      boolean align,
      @Nullable Path events,
      Duration warmup,
      Sharding sharding) {
    public Live {
      Objects.requireNonNull(warmup, "warmup");
      Objects.requireNonNull(sharding, "sharding");
      if (!sharding.shard().whole() && events == null) {
        throw new ChainException(
            Flags.SHARD
                + " "
                + sharding.shard()
                + " needs "
                + Flags.EVENTS
                + " FILE: each shard logs its requests there (with ."
                + sharding.shard().index()
                + "-of-"
                + sharding.shard().count()
                + " before the extension) and shard 0 merges the logs; give every shard the"
                + " same "
                + Flags.EVENTS);
      }
      if (!sharding.shard().whole() && sharding.startAt() == null) {
        throw new ChainException(
            Flags.SHARD
                + " "
                + sharding.shard()
                + " needs "
                + Flags.START_AT
                + ": every shard starts the trace at that instant; give each the same UTC time,"
                + " a few minutes ahead (e.g. "
                + Flags.START_AT
                + " 2026-12-08T10:00:00Z)");
      }
    }

    /** The live half with the built-in sentences. */
    public Live(
        Transport transport,
        Duration sampleEvery,
        boolean align,
        @Nullable Path events,
        Duration warmup) {
      this(transport, null, sampleEvery, align, events, warmup, Sharding.NONE);
    }
  }

  /**
   * How this process shares the trace with other load processes ({@code --shard k/N}): every shard
   * draws the trace's whole arrival schedule from the seed and sends every N-th arrival, starting
   * at the same instant; shard 0 also warms up, reads the fleet and probes the hosts, then waits
   * for the other shards' logs, merges them ({@link dev.speechscale.loadgen.ShardMerge}) and writes
   * the one artifact. The others write their two logs and nothing else.
   *
   * @param shard which arrivals this process sends
   * @param startAt when the trace starts (on the first alarm-period boundary at or after it when
   *     aligned), the same instant in every shard; {@code null}: on the next boundary after the
   *     warm-up
   * @param mergeWait how long shard 0 waits for the other shards' logs after its own run
   */
  public record Sharding(Shard shard, @Nullable Instant startAt, Duration mergeWait) {
    /** How long shard 0 waits by default: time to copy the other shards' logs over. */
    public static final Duration DEFAULT_WAIT = Duration.ofMinutes(10);

    /** One process sends the whole trace. */
    public static final Sharding NONE = new Sharding(Shard.WHOLE, null, DEFAULT_WAIT);

    public Sharding {
      Objects.requireNonNull(shard, "shard");
      if (!mergeWait.isPositive()) {
        throw new ChainException(
            Flags.SHARD_WAIT + " (" + mergeWait + ") must be positive; 10m is usual");
      }
    }

    /** Whether this process writes the artifact (the only one, or shard 0). */
    public boolean lead() {
      return shard.index() == 0;
    }
  }

  /**
   * What the prediction starts from.
   *
   * @param metricDelay simulated metric publication delay (zero locally)
   * @param preRoll the metric history the prediction starts with: the live endpoint's own (read
   *     back after the run), or a simulated one
   * @param speed whether the prediction's X_sat takes the instance's speed in the warm-up
   * @param hostSpeed whether the hosts are probed during the run and the prediction takes their
   *     speed
   * @param initialInstances whether the endpoint's instances were deployed for the replay or had
   *     long been serving before it
   */
  public record Prediction(
      Duration metricDelay,
      History preRoll,
      InstanceSpeed.Source speed,
      HostSpeedLogs.Source hostSpeed,
      InitialInstances initialInstances) {}

  /** What the endpoint's instances had served when the replay began, as the prediction takes it. */
  public enum InitialInstances {
    /**
     * Deployed for the replay: each goes on along the scale-out's cold start from the requests the
     * warm-up served (from its first request without a warm-up). On the local fleet a 20 s warm-up
     * leaves an instance serving 5-20 % slower than qmax's ladder instance, which had served the
     * whole ladder (measurements/simulator-calibration.md, "The replay's own instance is fresh").
     */
    FRESH,
    /**
     * Long in service before the replay (an endpoint that was not deployed for it): as warm as
     * qmax's ladder instance.
     */
    WARM
  }

  /**
   * Checks a trace file completely (every bad line named) without touching an endpoint.
   *
   * @throws ChainException naming the file, the line and the value
   */
  public static Traffic traffic(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new ChainException(
          Flags.TRACE
              + " "
              + file
              + ": no such file; give a CSV with a time_s,rps or arrival_s header");
    }
    try {
      return Traffic.csv(file.toString(), () -> lines(file));
    } catch (SimulatorException e) {
      throw ChainException.wrapping(e);
    }
  }

  /**
   * What one shard other than shard 0 sent ({@link #runShard}).
   *
   * @param shard the shard
   * @param arrivals the shard's arrivals, sent or dropped
   * @param dropped never sent: the client's in-flight bound was reached
   * @param eventLog the shard's event log
   * @param histogramLog the shard's HdrHistogram log
   */
  public record ShardSent(
      Shard shard, long arrivals, long dropped, Path eventLog, Path histogramLog) {}

  /**
   * Runs a shard other than shard 0 ({@link Sharding}): sends its arrivals of the trace from the
   * common start and writes its event log and HdrHistogram log for shard 0 to merge. No prediction,
   * no artifact.
   */
  public static ShardSent runShard(
      Platform platform, Request r, NanoClock clocks, Consumer<String> progress) {
    Shard shard = r.live().sharding().shard();
    if (r.live().sharding().lead()) {
      throw new IllegalArgumentException("shard " + shard + " writes the artifact: use run()");
    }
    Traced t = traced(platform, r, progress);
    LiveReplay live = ReplayRun.run(platform, t.options(r), clocks.wall(), clocks, progress);
    Path events = shard.eventLog(Objects.requireNonNull(r.live().events(), "events"));
    return new ShardSent(
        shard,
        live.requests().size(),
        live.requests().stream().filter(q -> q.status() == LiveReplay.Status.DROPPED).count(),
        events,
        Shard.histogramLog(events));
  }

  /** The trace, its texts and the prediction's setup, read before the endpoint is driven. */
  private record Traced(
      List<String> texts,
      ReplayPrediction.Setup setup,
      Path traceFile,
      double surgeStartS,
      Traffic traffic) {
    ReplayRun.Options options(Request r) {
      return new ReplayRun.Options(
          r.target().model(),
          traffic,
          surgeStartS,
          setup.policy().initialInstances(),
          new ReplayRun.Load(
              r.live().transport(),
              texts,
              r.seed(),
              ReplayRun.Load.MAX_IN_FLIGHT,
              r.live().sharding().shard()),
          new ReplayRun.Sampling(
              r.live().sampleEvery(),
              r.live().align(),
              r.live().events(),
              r.live().sharding().startAt()),
          new ReplayRun.Warmup(
              r.live().sharding().lead() ? r.live().warmup() : Duration.ZERO,
              warmupConcurrency(setup.physics().targetValue())));
    }
  }

  private static Traced traced(Platform platform, Request r, Consumer<String> progress) {
    List<String> texts = Texts.load(r.live().texts()); // a bad file before the endpoint is read
    ReplayPrediction.Setup setup =
        ReplayPrediction.setup(
            platform,
            r.target().endpoint(),
            r.inputs(),
            r.prediction().metricDelay(),
            r.seed(),
            r.prediction().preRoll() instanceof History.Simulated s
                ? s.preRoll()
                : new FleetSimulator.PreRoll.None());
    TraceAt at =
        switch (r.trace()) {
          case TraceSource.File f -> new TraceAt(f.file(), f.surgeStartS());
          case TraceSource.Calibration c -> writeCalibration(c, r, setup, progress);
        };
    return new Traced(texts, setup, at.file(), at.surgeStartS(), traffic(at.file()));
  }

  /**
   * Predicts, replays and compares; as shard 0 of several, also waits for the other shards' logs
   * and compares the merged arrivals.
   */
  public static ReplayArtifact run(
      Platform platform, Request r, NanoClock clocks, Consumer<String> progress) {
    if (!r.live().sharding().lead()) {
      throw new IllegalArgumentException(
          "shard " + r.live().sharding().shard() + " writes no artifact: use runShard()");
    }
    Clock clock = clocks.wall();
    NanoClock nanos = clocks;
    String endpoint = r.target().endpoint();
    Traced t = traced(platform, r, progress);
    ReplayPrediction.Setup setup = t.setup();
    Path traceFile = t.traceFile();
    double surgeStartS = t.surgeStartS();
    Traffic traffic = t.traffic();
    LiveReplay live;
    HostSpeedLog hostLog = null;
    try (HostSpeedProbe probe =
        r.prediction().hostSpeed() == HostSpeedLogs.Source.LIVE
            ? HostSpeedLogs.start(platform, endpoint, progress).orElse(null)
            : null) {
      live = ReplayRun.run(platform, t.options(r), clock, nanos, progress);
      if (probe != null) {
        hostLog =
            HostSpeedLogs.log(
                probe, live.origin().startedAt(), (int) Math.ceil(live.schedule().durationS()));
      }
    }
    if (!r.live().sharding().shard().whole()) {
      live =
          ReplayShards.merge(
              live,
              Objects.requireNonNull(r.live().events(), "events"),
              r.live().sharding(),
              clock,
              progress);
    }
    InstanceSpeed.Decision speed =
        InstanceSpeed.of(
            live.warmup(),
            r.inputs().qmax().measurement(r.inputs().qmaxFile()).ladder().throughputCurve(),
            setup.model().saturatedPerSecond(),
            r.prediction().speed());
    if (speed != null) {
      progress.accept("replay: instance speed: " + speed.figure().note());
      if (speed.saturation() != null) {
        setup = ReplayPrediction.withSaturation(setup, r.inputs(), speed.saturation());
      }
    }
    if (r.prediction().preRoll() instanceof History.Live) {
      setup =
          withLiveHistory(
              platform, endpoint, setup, r.prediction().metricDelay(), live, clock, progress);
    }
    setup =
        switch (r.prediction().initialInstances()) {
          case FRESH ->
              ReplayPrediction.withInitialServed(
                  setup, live.warmup() == null ? 0 : live.warmup().servedTotal());
          case WARM -> ReplayPrediction.asWarm(setup);
        };
    QmaxArtifact.HostSpeedReference hostReference = r.inputs().qmax().hostSpeedReference();
    HostSpeedLogs.Decision host =
        HostSpeedLogs.decide(
            hostLog, hostReference, r.prediction().hostSpeed(), r.inputs().qmaxFile());
    progress.accept("replay: host speed: " + host.note());
    setup = ReplayPrediction.withHostSpeeds(setup, host.speeds());
    progress.accept("simulating " + traffic.description() + " with the deployed policy");
    PolicyResult predicted = ReplayPrediction.predict(setup, traffic);
    Map<String, Object> params = new LinkedHashMap<>(r.parameters());
    params.put("trace", traceFile.toString());
    params.put("surge_start_s", surgeStartS);
    if (!r.live().sharding().shard().whole()) {
      params.put("shards", r.live().sharding().shard().count());
      params.put("start_at", String.valueOf(r.live().sharding().startAt()));
    }
    return ReplayComparison.of(
        new ReplayComparison.About(
            r.target().model(),
            traceFile.toString(),
            new ReplayArtifact.Inputs(
                r.inputs().qmaxFile(), r.inputs().ttotalFiles(), r.inputs().planFile()),
            r.command(),
            params),
        setup,
        predicted,
        live,
        speed == null ? null : speed.figure(),
        new ReplayComparison.HostSpeedFigure(
            hostLog, hostReference == null ? null : hostReference.cpuMs(), host.note()),
        clock.instant());
  }

  /**
   * The setup with the live endpoint's own history before the trace: as long as the deployed
   * policy's longest alarm window, read back from the platform now that the run is over.
   */
  private static ReplayPrediction.Setup withLiveHistory(
      Platform platform,
      String endpoint,
      ReplayPrediction.Setup setup,
      Duration metricDelay,
      LiveReplay live,
      Clock clock,
      Consumer<String> progress) {
    long window = new FleetSimulator.PreRoll.Window().seconds(setup.policy(), metricDelay);
    if (window == 0) {
      return setup;
    }
    waitForPublication(live.origin().startedAt(), metricDelay, clock, progress);
    FleetSimulator.PreRoll.Recorded history =
        LiveHistory.read(
            RetryingPlatform.of(platform, clock), endpoint, live.origin().startedAt(), window);
    if (setup.policy() instanceof Policy.Rules rules
        && rules.rules().scaleIn() instanceof StepScaleIn in) {
      progress.accept(
          "replay: the live scale-in alarm's periods before the trace ("
              + in.statistic().awsName()
              + " per "
              + in.period().toSeconds()
              + " s, oldest first): "
              + LiveHistory.periods(history, (int) in.period().toSeconds())
              + "; the prediction starts from them");
    }
    return ReplayPrediction.withPreRoll(setup, history);
  }

  /**
   * Waits until the seconds before the trace are published: a trace shorter than the platform's
   * metric publication delay (CloudWatch's minute or more) ends before its last pre-trace period
   * can be read, and a period read too early reads as no data where the live alarm had some.
   */
  private static void waitForPublication(
      Instant traceStart, Duration metricDelay, Clock clock, Consumer<String> progress) {
    Duration wait = publicationWait(traceStart, metricDelay, clock.instant());
    if (wait.isZero()) {
      return;
    }
    progress.accept(
        "replay: waiting "
            + wait.toSeconds()
            + " s for the metric publication delay before reading the history before the trace");
    try {
      Thread.sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChainException("interrupted while waiting for the metric history to be published");
    }
  }

  /**
   * How long after {@code now} the second before {@code traceStart} is published; zero if it is.
   */
  static Duration publicationWait(Instant traceStart, Duration metricDelay, Instant now) {
    Duration wait = Duration.between(now, traceStart.plus(metricDelay));
    return wait.isPositive() ? wait : Duration.ZERO;
  }

  /** The trace file a replay sends and when its surge starts. */
  private record TraceAt(Path file, double surgeStartS) {}

  /** Writes the calibration trace at the plan's measured X: quiet, a step surge, quiet again. */
  private static TraceAt writeCalibration(
      TraceSource.Calibration c,
      Request r,
      ReplayPrediction.Setup setup,
      Consumer<String> progress) {
    // the plan's measured X at C_scale_max, not the model's X_sat (the ladder's single best
    // rung, which one lucky rung on a shared machine inflates)
    Double x = r.inputs().plan().throughputAtCScaleMaxRps();
    CalibrationTrace t =
        new CalibrationTrace(
            x != null ? x : setup.model().saturatedPerSecond(), c.quiet(), c.surge(), c.fall());
    ArtifactCodec.writeText(c.writeTo(), t.csv());
    progress.accept(
        String.format(
            Locale.ROOT,
            "calibration trace %s: %.2f req/s for %d s, %.2f req/s for %d s, %.2f req/s for"
                + " %d s",
            c.writeTo(),
            t.quietPerSecond(),
            c.quiet().toSeconds(),
            t.surgePerSecond(),
            c.surge().toSeconds(),
            t.quietPerSecond(),
            c.fall().toSeconds()));
    return new TraceAt(c.writeTo(), t.surgeStartS());
  }

  /**
   * qmax's warm-up N (4), held below the deployed target so the warm-up alone cannot trigger a
   * scale-out before the trace starts.
   */
  static int warmupConcurrency(double targetValue) {
    return Math.max(1, Math.min(LadderSpec.WARMUP_CONCURRENCY, (int) Math.ceil(targetValue) - 1));
  }

  private static Stream<String> lines(Path file) {
    try {
      return Files.lines(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the trace " + file + ": " + e.getMessage(), e);
    }
  }
}
