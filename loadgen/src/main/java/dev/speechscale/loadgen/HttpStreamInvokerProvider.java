package dev.speechscale.loadgen;

import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerProvider;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.Transport;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link Transport#HTTP_STREAM}: {@code POST <base>/invocations} over keep-alive HTTP/1.1, one
 * plain socket per {@link Invoker.Connection}, the audio read as it streams. TTFAB is the first
 * byte after the WAV header. Found by {@link java.util.ServiceLoader}.
 */
public final class HttpStreamInvokerProvider implements InvokerProvider {
  /** Path appended to the target's base URI. */
  public static final String PATH = "/invocations";

  public HttpStreamInvokerProvider() {}

  @Override
  public Transport transport() {
    return Transport.HTTP_STREAM;
  }

  @Override
  public Invoker create(InvokerTarget target) {
    return new HttpStreamInvoker(target);
  }

  private static final class HttpStreamInvoker implements Invoker {
    private final InvokerTarget target;
    private final InetSocketAddress address;
    private final Set<HttpStreamConnection> open = ConcurrentHashMap.newKeySet();
    private final Watchdog watchdog;

    HttpStreamInvoker(InvokerTarget target) {
      if (target.transport() != Transport.HTTP_STREAM) {
        throw new LoadgenException(
            "the http-stream provider was given a " + target.transport().label() + " target");
      }
      this.target = target;
      this.address = Endpoints.address(target.baseUri());
      this.watchdog = new Watchdog(target.clock(), target.requestTimeout(), "http-stream");
    }

    @Override
    public Transport transport() {
      return Transport.HTTP_STREAM;
    }

    @Override
    public Connection connect() {
      HttpStreamConnection[] self = new HttpStreamConnection[1];
      HttpStreamConnection c =
          new HttpStreamConnection(
              address,
              Endpoints.hostHeader(target.baseUri()),
              Endpoints.path(target.baseUri(), PATH),
              target.requestTimeout().toNanos(),
              target.clock(),
              watchdog,
              () -> open.remove(self[0]));
      self[0] = c;
      open.add(c);
      return c;
    }

    @Override
    public void close() {
      for (HttpStreamConnection c : Set.copyOf(open)) {
        c.close();
      }
      watchdog.close();
    }
  }
}
