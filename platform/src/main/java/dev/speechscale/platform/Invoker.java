package dev.speechscale.platform;

/**
 * A client for one transport. Closed-loop workers each open one {@link Connection} and reuse it (a
 * keep-alive HTTP connection, or one WebSocket session kept open across requests).
 */
public interface Invoker extends AutoCloseable {
  Transport transport();

  /** A connection for one worker. */
  Connection connect();

  @Override
  void close();

  /** One worker's connection; not shared between threads. */
  interface Connection extends AutoCloseable {
    /** Sends one request and blocks until its response ends; never throws for a failed request. */
    Invocation invoke(SynthesisRequest request);

    @Override
    void close();
  }
}
