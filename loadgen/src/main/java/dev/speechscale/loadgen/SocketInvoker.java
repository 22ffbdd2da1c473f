package dev.speechscale.loadgen;

import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.Transport;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the raw-socket invokers share: the transport check, one watchdog for every request, and the
 * set of open connections that {@link #close()} closes. A connection leaves the set when it closes
 * itself.
 */
abstract class SocketInvoker implements Invoker {
  final InvokerTarget target;
  final InetSocketAddress address;
  final Watchdog watchdog;
  private final Transport transport;
  private final Set<Connection> open = ConcurrentHashMap.newKeySet();

  SocketInvoker(InvokerTarget target, Transport transport) {
    if (target.transport() != transport) {
      throw new LoadgenException(
          "the "
              + transport.label()
              + " provider was given a "
              + target.transport().label()
              + " target");
    }
    this.target = target;
    this.transport = transport;
    this.address = Endpoints.address(target.baseUri());
    this.watchdog = new Watchdog(target.clock(), target.requestTimeout(), transport.label());
  }

  /** A connection's socket to the target's base URI's path followed by {@code pathSuffix}. */
  final KeptSocket socket(String pathSuffix) {
    return new KeptSocket(
        address,
        Endpoints.hostHeader(target.baseUri()),
        Endpoints.path(target.baseUri(), pathSuffix),
        target.requestTimeout().toNanos(),
        target.clock(),
        watchdog);
  }

  /** A new connection that runs {@code onClose} once when it closes. */
  abstract Connection open(Runnable onClose);

  @Override
  public final Transport transport() {
    return transport;
  }

  @Override
  public final Connection connect() {
    Connection[] self = new Connection[1];
    Connection c = open(() -> open.remove(self[0]));
    self[0] = c;
    open.add(c);
    return c;
  }

  @Override
  public final void close() {
    for (Connection c : Set.copyOf(open)) {
      c.close();
    }
    watchdog.close();
  }
}
