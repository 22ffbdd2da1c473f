package dev.speechscale.server;

import dev.speechscale.admission.AdmissionGate;
import dev.speechscale.admission.GateConfig;
import dev.speechscale.admission.Permit;
import dev.speechscale.platform.NanoClock;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The loaded engine with everything a request needs: the admission gate, the bounded engine
 * executor, the request parser. Shared by the HTTP and WebSocket transports, so both go through the
 * same gate.
 *
 * <p>Native engine calls run on {@link #engineThreads}, a fixed pool of platform threads sized to
 * the engine's concurrency: a native call pins a virtual thread's carrier, and the gate already
 * guarantees the pool never has more work than threads.
 */
final class SpeechRuntime implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(SpeechRuntime.class.getName());

  final SpeechEngine engine;
  final AdmissionGate gate;
  final RequestParser parser;
  final ServerConfig config;
  final ServerMetrics metrics;
  final NanoClock ticker;
  final Clock wallClock;
  private final ExecutorService engineThreads;
  private final DisconnectWatch disconnects = new DisconnectWatch();
  final EngineWatchdog watchdog;

  /** Bodies being read before admission (MAX_BODY_READERS). */
  final BodyReaders bodyReaders;

  private final AtomicInteger wsSessions = new AtomicInteger();
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();

  SpeechRuntime(
      SpeechEngine engine,
      ServerConfig config,
      ServerMetrics metrics,
      NanoClock ticker,
      Clock wallClock) {
    this.engine = engine;
    this.config = config;
    this.metrics = metrics;
    this.ticker = ticker;
    this.wallClock = wallClock;
    int slots = engine.maxConcurrency();
    this.gate =
        new AdmissionGate(new GateConfig(config.maxQueueDepth(), slots, Duration.ZERO), ticker);
    this.parser = new RequestParser(engine, config.maxTextChars(), Mp3Encoder.LAME.isPresent());
    this.watchdog = new EngineWatchdog(ticker, config.engineStall(), engine.name());
    this.bodyReaders = new BodyReaders(config.bodies().maxReaders());
    AtomicInteger n = new AtomicInteger();
    this.engineThreads =
        Executors.newFixedThreadPool(
            slots,
            r ->
                Thread.ofPlatform()
                    .name(engine.name() + "-engine-" + n.incrementAndGet())
                    .daemon(true)
                    .unstarted(r));
  }

  /**
   * Starts synthesis for a request whose permit holds an execution slot, under the watchdog. Once a
   * call was declared stuck the engine is never called again: the job fails at once with {@code
   * engine_stuck}.
   */
  SynthesisJob start(SynthesisRequest request, Permit permit, ChunkBuffer buffer) {
    List<String> segments = config.segmentation().split(request.text());
    SynthesisJob job =
        new SynthesisJob(
            engine,
            segments,
            request,
            buffer,
            permit,
            config.maxBufferedBytes(),
            config.maxAudio(),
            ticker);
    Optional<String> stuck = watchdog.stuck();
    if (stuck.isPresent()) {
      job.refuse(stuck.get());
      return job;
    }
    watchdog.watch(job);
    engineThreads.execute(() -> {
      try {
        job.run();
      } finally {
        watchdog.unwatch(job);
      }
    });
    return job;
  }

  /**
   * How long a writer waits for the engine's next chunk: past the watchdog's bound, so a stuck call
   * is reported by the watchdog (with its reason) before the writer gives up on its own.
   */
  Duration writerStall() {
    return config.engineStall().plus(Duration.ofSeconds(10));
  }

  /**
   * Counts a WebSocket session in; false (nothing counted) when {@code MAX_WS_SESSIONS} are open.
   */
  boolean openSession() {
    while (true) {
      int now = wsSessions.get();
      if (now >= config.maxWsSessions()) {
        return false;
      }
      if (wsSessions.compareAndSet(now, now + 1)) {
        return true;
      }
    }
  }

  /** Counts a session out; called exactly once per session {@link #openSession} counted in. */
  void closeSession() {
    wsSessions.decrementAndGet();
  }

  int wsSessions() {
    return wsSessions.get();
  }

  /** Empty while healthy; the reason once an engine call was declared stuck. */
  Optional<String> unhealthy() {
    return watchdog.stuck();
  }

  /**
   * Watches the request's connection until the returned watch is closed; {@code onGone} runs when
   * the client hangs up. A connection that is not a plain socket is not watched (its idle timeout
   * still applies).
   */
  DisconnectWatch.Watch watchDisconnect(org.eclipse.jetty.server.Request request, Runnable onGone) {
    if (request.getConnectionMetaData().getConnection().getEndPoint()
            instanceof org.eclipse.jetty.io.SocketChannelEndPoint socket
        && socket.getChannel() instanceof java.nio.channels.SocketChannel channel) {
      return disconnects.watch(channel, onGone);
    }
    return () -> {};
  }

  ChunkBuffer newBuffer() {
    return new ChunkBuffer(config.maxBufferedBytes());
  }

  /**
   * The first-byte deadline on the gate's ticker: {@code MAX_REQUEST_AGE_S} after the client's
   * {@code request_timestamp} when given, else after arrival.
   */
  long deadlineNanos(SynthesisRequest request, long arrivalNanos) {
    long age = config.maxRequestAge().toNanos();
    if (request.requestTimestampEpochS().isEmpty()) {
      return arrivalNanos + age;
    }
    double nowS = wallClock.millis() / 1000.0;
    long sinceSentNanos = (long) ((nowS - request.requestTimestampEpochS().getAsDouble()) * 1e9);
    return arrivalNanos + age - Math.max(0, sinceSentNanos);
  }

  /** 408 {@code request_stale} when the client sent the request longer ago than allowed. */
  Optional<ApiError> stale(SynthesisRequest request) {
    if (request.requestTimestampEpochS().isEmpty()) {
      return Optional.empty();
    }
    double ageS = wallClock.millis() / 1000.0 - request.requestTimestampEpochS().getAsDouble();
    double maxS = config.maxRequestAge().toNanos() / 1e9;
    if (ageS > maxS) {
      return Optional.of(
          ApiError.of(
              408,
              "request_stale",
              String.format(
                  java.util.Locale.ROOT,
                  "request_timestamp is %.3f s old, more than MAX_REQUEST_AGE_S (%.3f s); send a fresh request",
                  ageS,
                  maxS)));
    }
    return Optional.empty();
  }

  /**
   * One discarded synthesis so the first real request does not pay for cold caches, and the proof
   * that the engine works: ready means one synthesis succeeded.
   *
   * @throws EngineException when the warm-up synthesis fails or produces no audio
   */
  void warmup() {
    // the request path too: parsing the first request must not pay for class loading
    parser.parse(
        ("{\"text\":\"" + config.warmupText().replace("\"", "") + "\",\"speed\":1.0}")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    long[] samples = {0};
    try {
      engine.synthesize(
          config.warmupText(),
          engine.defaultVoice(),
          1.0,
          (s, o, l) -> {
            samples[0] += l;
            return true;
          });
    } catch (RuntimeException e) {
      throw new EngineException(
          "warm-up synthesis failed ("
              + engine.name()
              + ", text '"
              + config.warmupText()
              + "'): "
              + e.getMessage()
              + "; the server does not turn ready behind an engine that cannot synthesize",
          e);
    }
    if (samples[0] == 0) {
      throw new EngineException(
          "warm-up synthesis failed ("
              + engine.name()
              + ", text '"
              + config.warmupText()
              + "'): no audio; the server does not turn ready behind an engine that stays silent");
    }
    LOG.log(System.Logger.Level.INFO, "warm-up produced {0} samples", samples[0]);
  }

  /**
   * Stops the engine threads and closes the engine, once. After a stuck call the engine is left
   * open: a call is still inside it, and closing native state under it could crash the process that
   * is exiting anyway.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    watchdog.close();
    engineThreads.shutdownNow();
    disconnects.close();
    if (watchdog.stuck().isEmpty()) {
      engine.close();
    }
  }
}
