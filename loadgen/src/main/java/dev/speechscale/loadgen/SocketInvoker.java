package dev.speechscale.loadgen;

import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.Transport;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A raw-socket invoker: the transport check, one watchdog for every request, and the set of open
 * connections that {@link #close()} closes. A connection leaves the set when it closes itself. What
 * differs between transports is only the connection each socket carries ({@link Connections}).
 */
final class SocketInvoker implements Invoker {
  private final InvokerTarget target;
  private final InetSocketAddress address;
  private final Watchdog watchdog;
  private final Transport transport;
  private final String pathSuffix;
  private final Connections connections;
  private final Set<Connection> open = ConcurrentHashMap.newKeySet();

  /** A transport's connection on a socket kept for it, which runs {@code onClose} once closed. */
  @FunctionalInterface
  interface Connections {
    Connection on(KeptSocket socket, Runnable onClose);
  }

  /**
   * An invoker of {@code transport} whose connections reach the target's base URI's path followed
   * by {@code pathSuffix}.
   */
  SocketInvoker(
      InvokerTarget target, Transport transport, String pathSuffix, Connections connections) {
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
    this.pathSuffix = pathSuffix;
    this.connections = connections;
    this.address = Endpoints.address(target.baseUri());
    this.watchdog = new Watchdog(target.clock(), target.requestTimeout(), transport.label());
  }

  /** A new connection's socket. */
  private KeptSocket socket() {
    return new KeptSocket(
        address,
        Endpoints.hostHeader(target.baseUri()),
        Endpoints.path(target.baseUri(), pathSuffix),
        target.requestTimeout().toNanos(),
        target.clock(),
        watchdog);
  }

  @Override
  public Transport transport() {
    return transport;
  }

  @Override
  public java.util.Optional<java.net.URI> target() {
    return java.util.Optional.of(target.baseUri());
  }

  @Override
  public Connection connect() {
    Connection[] self = new Connection[1];
    Connection c = connections.on(socket(), () -> open.remove(self[0]));
    self[0] = c;
    open.add(c);
    return c;
  }

  @Override
  public void close() {
    for (Connection c : Set.copyOf(open)) {
      c.close();
    }
    watchdog.close();
  }
}
