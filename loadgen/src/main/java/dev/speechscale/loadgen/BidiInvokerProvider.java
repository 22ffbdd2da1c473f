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
    return new BidiInvoker(target);
  }

  private static final class BidiInvoker extends SocketInvoker {
    private final AtomicInteger sessions = new AtomicInteger();

    BidiInvoker(InvokerTarget target) {
      super(target, Transport.BIDI);
    }

    @Override
    Connection open(Runnable onClose) {
      return new BidiConnection(socket(PATH), "lg" + sessions.getAndIncrement(), onClose);
    }
  }
}
