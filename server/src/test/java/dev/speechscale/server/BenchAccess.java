package dev.speechscale.server;

/**
 * Test-only door for the benchmark in {@code dev.speechscale.server.bench}: the engines and the
 * in-process server are package-private by design.
 */
public final class BenchAccess {
  private BenchAccess() {}

  /** A running in-process server. */
  public record Running(int port, AutoCloseable closer) implements AutoCloseable {
    @Override
    public void close() throws Exception {
      closer.close();
    }
  }

  public static SpeechEngine flite(int threads) {
    return new FliteEngine(threads);
  }

  public static Running start(SpeechEngine engine, String... flags) throws Exception {
    TestServer server = TestServer.start(engine, flags);
    server.runtime.warmup();
    return new Running(server.port(), server);
  }

  /**
   * A {@code /metrics} body as the server renders it, from metrics filled as after a representative
   * run (1,000 delivered requests with their three histograms, refusals of four kinds, a stream
   * failure, WebSocket traffic) and a gate with requests in flight. Each call renders afresh.
   *
   * @param variant {@code text} (what a Prometheus scrape gets), {@code openmetrics} (a scrape that
   *     asks for it), or {@code text-speech-server-only} (the text format without the JVM's and the
   *     process's metrics: the families the hand-written renderer had), or {@code
   *     text-without-PREFIX} (the text format without the families whose name starts with PREFIX:
   *     what one group of the JVM's metrics costs)
   */
  public static java.util.function.Supplier<byte[]> metricsScrape(String variant) {
    var gate = new dev.speechscale.admission.GateSnapshot(3, 1, 2, 8, 2, 1_000, 50, 0, 0);
    var serving = new ServerMetrics.Serving(gate, "flite", 16_000, true);
    ServerMetrics m = new ServerMetrics(() -> serving);
    fill(m);
    return switch (variant) {
      case "text" -> () -> m.scrape(null).body();
      case "openmetrics" -> () -> m.scrape("application/openmetrics-text; version=1.0.0").body();
      case "text-speech-server-only" ->
          () -> m.scrape(null, name -> name.startsWith("speech_server")).body();
      case String v when v.startsWith("text-without-") -> {
        String dropped = v.substring("text-without-".length());
        yield () -> m.scrape(null, name -> !name.startsWith(dropped)).body();
      }
      default ->
          throw new IllegalArgumentException(
              "variant ("
                  + variant
                  + ") must be text, openmetrics, text-speech-server-only or text-without-PREFIX; pick one of those");
    };
  }

  private static void fill(ServerMetrics m) {
    for (int i = 0; i < 1_000; i++) {
      m.ttfab.recordNanos(20_000_000L + i * 97_000L);
      m.synthesis.recordNanos(50_000_000L + i * 131_000L);
      m.queueWait.recordNanos(i * 53_000L);
      m.response(InvocationsHandler.TRANSPORT, 200);
      m.completed(16_000);
    }
    for (int i = 0; i < 100; i++) {
      m.response(BidiSession.TRANSPORT, 200);
    }
    count(m, "invalid_request", 400, 10);
    count(m, "body_too_large", 413, 2);
    count(m, "queue_saturated", 503, 50);
    count(m, "deadline_shed", 503, 5);
    m.streamFailed(StreamFailure.CLIENT_DISCONNECTED);
  }

  private static void count(ServerMetrics m, String reason, int status, int times) {
    for (int i = 0; i < times; i++) {
      m.rejected(reason);
      m.response(InvocationsHandler.TRANSPORT, status);
    }
  }
}
