package dev.speechscale.loadgen;

import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerProvider;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.Transport;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link Transport#BIDI}: one WebSocket session on {@code <base>/invocations-bidirectional-stream}
 * per {@link Invoker.Connection}, kept open across requests; TTFAB is the first binary frame. Found
 * by {@link java.util.ServiceLoader}.
 */
public final class BidiInvokerProvider implements InvokerProvider {
  /** Path appended to the target's base URI. */
  public static final String PATH = "/invocations-bidirectional-stream";

  public BidiInvokerProvider() {}

  @Override
  public Transport transport() {
    return Transport.BIDI;
  }

  @Override
  public Invoker create(InvokerTarget target) {
    AtomicInteger sessions = new AtomicInteger();
    return new SocketInvoker(
        target,
        Transport.BIDI,
        PATH,
        (socket, onClose) ->
            new BidiConnection(socket, "lg" + sessions.getAndIncrement(), onClose));
  }
}
