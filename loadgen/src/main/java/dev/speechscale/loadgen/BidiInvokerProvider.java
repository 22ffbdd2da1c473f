package dev.speechscale.loadgen;

import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerProvider;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.Transport;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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

  private static final class BidiInvoker implements Invoker {
    private final InvokerTarget target;
    private final InetSocketAddress address;
    private final Set<BidiConnection> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger sessions = new AtomicInteger();
    private final Watchdog watchdog;

    BidiInvoker(InvokerTarget target) {
      if (target.transport() != Transport.BIDI) {
        throw new LoadgenException(
            "the bidi provider was given a " + target.transport().label() + " target");
      }
      this.target = target;
      this.address = Endpoints.address(target.baseUri());
      this.watchdog = new Watchdog(target.clock(), target.requestTimeout(), "bidi");
    }

    @Override
    public Transport transport() {
      return Transport.BIDI;
    }

    @Override
    public Connection connect() {
      BidiConnection[] self = new BidiConnection[1];
      BidiConnection c =
          new BidiConnection(
              address,
              Endpoints.hostHeader(target.baseUri()),
              Endpoints.path(target.baseUri(), PATH),
              target.requestTimeout().toNanos(),
              target.clock(),
              "lg" + sessions.getAndIncrement(),
              watchdog,
              () -> open.remove(self[0]));
      self[0] = c;
      open.add(c);
      return c;
    }

    @Override
    public void close() {
      for (BidiConnection c : Set.copyOf(open)) {
        c.close();
      }
      watchdog.close();
    }
  }
}
