package dev.speechscale.server;

import dev.speechscale.admission.Ticker;
import java.io.ByteArrayOutputStream;
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

  private TestServer(ServerConfig config, SpeechEngine engine, Ticker ticker) throws Exception {
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
    return start(engine, Ticker.system(), flags);
  }

  /** A server whose gate and request timing read {@code ticker} (a fake one in timing tests). */
  static TestServer start(SpeechEngine engine, Ticker ticker, String... flags) throws Exception {
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
