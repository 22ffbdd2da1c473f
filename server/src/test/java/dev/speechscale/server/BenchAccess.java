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
}
