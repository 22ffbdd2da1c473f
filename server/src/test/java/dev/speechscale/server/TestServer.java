package dev.speechscale.server;

import dev.speechscale.platform.NanoClock;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** An in-process speech-server on 127.0.0.1:0 for tests; closing it drains and stops it. */
final class TestServer implements AutoCloseable {
  final SpeechServer server;
  final SpeechRuntime runtime;
  final URI base;
  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();

  private TestServer(ServerConfig config, SpeechEngine engine, NanoClock ticker) throws Exception {
    server =
        new SpeechServer(
            config,
            new PrintStream(stdout, true, StandardCharsets.UTF_8),
            ticker,
            Clock.systemUTC());
    int port = server.start();
    runtime = server.attach(engine);
    server.markReady();
    base = URI.create("http://127.0.0.1:" + port);
  }

  static TestServer start(SpeechEngine engine, String... flags) throws Exception {
    return start(engine, NanoClock.SYSTEM, flags);
  }

  /** A server whose gate and request timing read {@code ticker} (a fake one in timing tests). */
  static TestServer start(SpeechEngine engine, NanoClock ticker, String... flags) throws Exception {
    List<String> args = new ArrayList<>(List.of("--port", "0"));
    args.addAll(List.of(flags));
    return new TestServer(ServerConfig.parse(args, Map.of()), engine, ticker);
  }

  int port() {
    return server.port();
  }

  String stdout() {
    return stdout.toString(StandardCharsets.UTF_8);
  }

  HttpResponse<byte[]> post(String json) throws Exception {
    return http.send(
        HttpRequest.newBuilder(base.resolve("/invocations"))
            .timeout(Duration.ofSeconds(60))
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Posts {@code json} without waiting for the answer. */
  CompletableFuture<HttpResponse<byte[]>> postAsync(String json) {
    return http.sendAsync(
        HttpRequest.newBuilder(base.resolve("/invocations"))
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  /** Sends a streaming request without waiting for it: the response arrives as it streams. */
  CompletableFuture<HttpResponse<InputStream>> stream(String text) {
    return http.sendAsync(
        HttpRequest.newBuilder(base.resolve("/invocations"))
            .POST(HttpRequest.BodyPublishers.ofString("{\"text\":\"" + text + "\"}"))
            .build(),
        HttpResponse.BodyHandlers.ofInputStream());
  }

  /**
   * Sends one streaming request per text, then waits until the gate holds them all (those past the
   * engine's slots queued): the set-up of every test that needs requests held in the gate.
   */
  List<CompletableFuture<HttpResponse<InputStream>>> streamUntilInFlight(String... texts) {
    List<CompletableFuture<HttpResponse<InputStream>>> held = new ArrayList<>();
    for (String text : texts) {
      held.add(stream(text));
    }
    awaitInFlight(texts.length);
    return held;
  }

  /** Spins (bounded, no sleeping) until the gate holds {@code n} requests in flight. */
  void awaitInFlight(int n) {
    awaitGate(() -> runtime.gate.inFlight() == n, "in-flight never reached " + n);
  }

  /** Spins (bounded, no sleeping) until {@code n} requests wait for a slot. */
  void awaitQueued(int n) {
    awaitGate(() -> runtime.gate.snapshot().queued() == n, "queued never reached " + n);
  }

  private void awaitGate(BooleanSupplier reached, String failure) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!reached.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(failure + ": " + runtime.gate.snapshot());
      }
      Thread.onSpinWait();
    }
  }

  /** Waits (bounded, no sleeping) until the gate reports nothing in flight. */
  void awaitIdle() throws InterruptedException {
    if (!runtime.gate.awaitIdle(Duration.ofSeconds(30))) {
      throw new AssertionError("still in flight after 30 s: " + runtime.gate.snapshot());
    }
  }

  @Override
  public void close() {
    http.shutdownNow();
    server.shutdown(Duration.ofSeconds(10));
  }
}
