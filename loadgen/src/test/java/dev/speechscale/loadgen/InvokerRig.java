package dev.speechscale.loadgen;

import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.SynthesisRequest;
import dev.speechscale.platform.Transport;
import java.time.Duration;

/**
 * The set-up every invoker test repeats: a fake server, an invoker of one transport aimed at it and
 * one connection, closed in reverse order.
 */
final class InvokerRig implements AutoCloseable {
  final FakeTtsServer server;
  private final Invoker invoker;
  private final Invoker.Connection connection;

  private InvokerRig(FakeTtsServer server, Invoker invoker) {
    this.server = server;
    this.invoker = invoker;
    this.connection = invoker.connect();
  }

  /** Takes ownership of {@code server}: closing the rig closes it. */
  static InvokerRig open(Transport transport, FakeTtsServer server) throws InterruptedException {
    return open(transport, server, Duration.ofSeconds(10));
  }

  static InvokerRig open(Transport transport, FakeTtsServer server, Duration timeout)
      throws InterruptedException {
    Invoker invoker = null;
    try {
      invoker = Targets.invoker(transport, server.baseUri(), timeout);
      return new InvokerRig(server, invoker);
    } catch (RuntimeException e) {
      if (invoker != null) {
        invoker.close();
      }
      server.close();
      throw e;
    }
  }

  Invocation invoke(SynthesisRequest request) {
    return connection.invoke(request);
  }

  @Override
  public void close() throws InterruptedException {
    try (server;
        invoker;
        connection) {
      // closes connection, then invoker, then server
    }
  }
}
