package dev.speechscale.platform;

/**
 * A client for one transport. Closed-loop workers each open one {@link Connection} and reuse it (a
 * keep-alive HTTP connection, or one WebSocket session kept open across requests).
 */
public interface Invoker extends AutoCloseable {
  Transport transport();

  /**
   * Where requests go (the base URI an http-stream or bidi invoker connects to), for messages that
   * must name it; empty when the invoker cannot say (an SDK client).
   */
  default java.util.Optional<java.net.URI> target() {
    return java.util.Optional.empty();
  }

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
