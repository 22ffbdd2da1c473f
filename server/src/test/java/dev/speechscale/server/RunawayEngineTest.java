package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.NanoClock;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Engines that will not stop by themselves (issue 11): one that keeps producing audio is stopped at
 * {@code MAX_AUDIO_S}; one stuck inside a native call is declared stuck by the watchdog, its
 * request answered, its permit released, and the instance turns unhealthy.
 */
class RunawayEngineTest {

  @Test
  void invocations_bufferedAudioPastMaxAudio_stopsTheEngineAndAnswersAudioCapExceeded()
      throws Exception {
    ScriptedEngine engine = new ScriptedEngine(400, 1); // 400 × 0.1 s = 40 s of audio
    engine.allow(400);
    try (TestServer s = TestServer.start(engine, "--max-audio-s", "1")) {
      HttpResponse<byte[]> r = s.post("{\"text\":\"runaway\",\"stream\":false,\"format\":\"pcm\"}");
      String body = new String(r.body(), StandardCharsets.UTF_8);
      assertThat(r.statusCode()).as(body).isEqualTo(413);
      assertThat(body)
          .contains("\"error\":\"audio_cap_exceeded\"")
          .contains("1.0 s")
          .contains("MAX_AUDIO_S");
      s.awaitIdle();
      assertThat(engine.cancelled.get()).as("the engine was stopped").isEqualTo(1);
      assertThat(engine.running.get()).isZero();
      assertThat(s.get("/metrics").body())
          .contains("stream_failures_total{reason=\"audio_cap_exceeded\"} 1");
    }
  }

  @Test
  void invocations_streamedAudioPastMaxAudio_abortsTheStreamAfterTheCap() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(400, 1);
    engine.allow(400);
    try (TestServer s = TestServer.start(engine, "--max-audio-s", "1")) {
      assertThatThrownBy(() -> s.post("{\"text\":\"runaway\",\"format\":\"pcm\"}"))
          .as("a stream cut at the cap ends without its terminating chunk")
          .isInstanceOf(java.io.IOException.class);
      s.awaitIdle();
      assertThat(engine.cancelled.get()).isEqualTo(1);
      assertThat(engine.calls.get()).isEqualTo(1);
    }
  }

  @Test
  void websocket_audioPastMaxAudio_sendsAudioCapExceededAndKeepsTheSession() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(400, 1);
    engine.allow(400);
    try (TestServer s = TestServer.start(engine, "--max-audio-s", "1");
        WsClient ws = new WsClient(s.port())) {
      ws.sendText("{\"text\":\"runaway\",\"request_id\":\"r1\"}");
      String error = nextError(ws);
      assertThat(error).contains("audio_cap_exceeded").contains("MAX_AUDIO_S");
      s.awaitIdle();
      assertThat(engine.cancelled.get()).isEqualTo(1);
    }
  }

  @Test
  void watchdog_engineCallStuckPastTheBound_answersEngineStuckReleasesThePermitAndFailsPing()
      throws Exception {
    AtomicLong now = new AtomicLong();
    NanoClock ticker = now::get;
    HangingEngine engine = new HangingEngine();
    try (TestServer s = TestServer.start(engine, ticker, "--engine-stall-s", "5")) {
      var pending =
          s.http.sendAsync(
              HttpRequest.newBuilder(s.base.resolve("/invocations"))
                  .timeout(Duration.ofSeconds(60))
                  .POST(HttpRequest.BodyPublishers.ofString("{\"text\":\"hang..\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(engine.entered.await(30, TimeUnit.SECONDS)).as("the engine was called").isTrue();
      assertThat(s.runtime.watchdog.check()).as("within the bound").isZero();
      assertThat(s.get("/ping").statusCode()).isEqualTo(200);

      now.addAndGet(Duration.ofSeconds(6).toNanos());
      s.runtime.watchdog.check();

      HttpResponse<String> r = pending.get(30, TimeUnit.SECONDS);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
      assertThat(r.body()).contains("\"error\":\"engine_stuck\"").contains("ENGINE_STALL_S");
      s.awaitIdle(); // the permit came back although the engine thread is still inside the call
      assertThat(s.runtime.gate.snapshot().executing()).isZero();
      HttpResponse<String> ping = s.get("/ping");
      assertThat(ping.statusCode()).isEqualTo(503);
      assertThat(ping.body()).contains("engine_stuck");
      HttpResponse<byte[]> next = s.post("{\"text\":\"hello\"}");
      assertThat(next.statusCode()).isEqualTo(503);
      assertThat(new String(next.body(), StandardCharsets.UTF_8)).contains("engine_stuck");
      assertThat(engine.calls.get()).as("the stuck engine is never called again").isEqualTo(1);
    } finally {
      engine.release.countDown();
    }
  }

  @Test
  void start_afterAStuckCall_queuedRequestIsRefusedNotRun() throws Exception {
    AtomicLong now = new AtomicLong();
    HangingEngine engine = new HangingEngine();
    try (TestServer s = TestServer.start(engine, now::get, "--engine-stall-s", "5")) {
      var first = s.http.sendAsync(post(s, "first"), HttpResponse.BodyHandlers.ofString());
      assertThat(engine.entered.await(30, TimeUnit.SECONDS)).isTrue();
      var second = s.http.sendAsync(post(s, "second"), HttpResponse.BodyHandlers.ofString());
      s.awaitQueued(1);
      now.addAndGet(Duration.ofSeconds(6).toNanos());
      s.runtime.watchdog.check();
      assertThat(first.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(503);
      HttpResponse<String> queued = second.get(30, TimeUnit.SECONDS);
      assertThat(queued.statusCode()).isEqualTo(503);
      assertThat(queued.body()).contains("engine_stuck");
      s.awaitIdle();
      assertThat(engine.calls.get()).isEqualTo(1);
    } finally {
      engine.release.countDown();
    }
  }

  @Test
  void config_maxAudioAndEngineStall_fromFlagsEnvironmentAndDefaults() {
    ServerConfig defaults = ServerConfig.parse(List.of("--port", "0"), Map.of());
    assertThat(defaults.maxAudio().toSeconds())
        .isEqualTo((long) Math.ceil(4096 * ServerConfig.DEFAULT_AUDIO_S_PER_CHAR));
    assertThat(defaults.engineStall()).isEqualTo(Duration.ofSeconds(60));
    ServerConfig env =
        ServerConfig.parse(
            List.of("--port", "0", "--max-text-chars", "100"),
            Map.of("ENGINE_STALL_S", "7", "MAX_AUDIO_S", "12.5"));
    assertThat(env.maxAudio()).isEqualTo(Duration.ofMillis(12_500));
    assertThat(env.engineStall()).isEqualTo(Duration.ofSeconds(7));
    ServerConfig derived =
        ServerConfig.parse(List.of("--port", "0", "--max-text-chars", "100"), Map.of());
    assertThat(derived.maxAudio().toSeconds())
        .isEqualTo((long) Math.ceil(100 * ServerConfig.DEFAULT_AUDIO_S_PER_CHAR));
    assertThatThrownBy(() -> ServerConfig.parse(List.of("--max-audio-s", "0"), Map.of()))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("--max-audio-s / MAX_AUDIO_S");
    assertThatThrownBy(() -> ServerConfig.parse(List.of("--engine-stall-s", "0.5"), Map.of()))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("at least 1 s");
  }

  /** The next error message, skipping audio and other messages (bounded by the client's wait). */
  private static String nextError(WsClient ws) throws InterruptedException {
    for (int i = 0; i < 10_000; i++) {
      if (ws.next() instanceof String text && text.contains("\"type\":\"error\"")) {
        return text;
      }
    }
    throw new AssertionError("no error message within 10000 messages");
  }

  @Test
  void main_engineCallStuck_drainsAndExits3WithTheReason() throws Exception {
    HangingEngine engine = new HangingEngine();
    var out = new java.io.ByteArrayOutputStream();
    var err = new java.io.ByteArrayOutputStream();
    var exit = new java.util.concurrent.CompletableFuture<Integer>();
    Thread.ofPlatform()
        .start(() ->
            exit.complete(
                Main.run(
                    new String[] {"--port", "0", "--engine-stall-s", "1"},
                    Map.of(),
                    new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                    new java.io.PrintStream(err, true, StandardCharsets.UTF_8),
                    config -> engine)));
    try {
      int port = listeningPort(out);
      var http = java.net.http.HttpClient.newHttpClient();
      var pending =
          http.sendAsync(
              HttpRequest.newBuilder(
                      java.net.URI.create("http://127.0.0.1:" + port + "/invocations"))
                  .POST(HttpRequest.BodyPublishers.ofString("{\"text\":\"hang\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> r = pending.get(60, TimeUnit.SECONDS);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
      assertThat(exit.get(60, TimeUnit.SECONDS)).isEqualTo(Main.EXIT_ENGINE_STUCK);
      assertThat(err.toString(StandardCharsets.UTF_8))
          .contains("declared stuck")
          .contains("exiting 3");
    } finally {
      engine.release.countDown();
    }
  }

  private static int listeningPort(java.io.ByteArrayOutputStream out) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < until) {
      String text = out.toString(StandardCharsets.UTF_8);
      if (text.contains("STAGE ready")) {
        var m =
            java.util.regex.Pattern.compile(SpeechServer.LISTENING + "[^:]+:(\\d+)").matcher(text);
        if (m.find()) {
          return Integer.parseInt(m.group(1));
        }
      }
      Thread.onSpinWait();
      Thread.yield();
    }
    throw new AssertionError("the server never turned ready: " + out);
  }

  private static HttpRequest post(TestServer s, String id) {
    return HttpRequest.newBuilder(s.base.resolve("/invocations"))
        .timeout(Duration.ofSeconds(60))
        .POST(
            HttpRequest.BodyPublishers.ofString(
                "{\"text\":\"hang\",\"request_id\":\"" + id + "\"}"))
        .build();
  }

  /** A native call that never returns and never calls back, until the test lets it go. */
  static final class HangingEngine extends TestEngine {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger calls = new AtomicInteger();

    HangingEngine() {
      super("hanging", 1);
    }

    @Override
    public void synthesize(String text, String voice, double speed, PcmSink sink) {
      if (!text.contains("hang")) {
        sink.accept(new short[160], 0, 160); // the warm-up: this engine works until it hangs
        return;
      }
      calls.incrementAndGet();
      entered.countDown();
      try {
        if (!release.await(5, TimeUnit.MINUTES)) {
          throw new EngineException("the test never released the hanging engine");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new EngineException("interrupted", e);
      }
    }
  }
}
