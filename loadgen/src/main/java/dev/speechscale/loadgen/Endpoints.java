package dev.speechscale.loadgen;

import dev.speechscale.platform.InvokerTarget;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** Where the plain-socket invokers connect, from an {@link InvokerTarget}'s base URI. */
final class Endpoints {
  private Endpoints() {}

  static InetSocketAddress address(URI base) {
    String scheme = base.getScheme() == null ? "" : base.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("ws")) {
      throw new LoadgenException(
          "base URI "
              + base
              + " must be http:// (or ws://): the http-stream and bidi invokers speak plain"
              + " HTTP/1.1 to a container or the local router; use response-stream for a TLS"
              + " endpoint");
    }
    if (base.getHost() == null) {
      throw new LoadgenException("base URI " + base + " has no host; give http://HOST:PORT");
    }
    int port = base.getPort() < 0 ? 80 : base.getPort();
    return new InetSocketAddress(base.getHost(), port);
  }

  static String hostHeader(URI base) {
    return base.getPort() < 0 ? base.getHost() : base.getHost() + ":" + base.getPort();
  }

  /** The base URI's path (without a trailing slash) followed by {@code suffix}. */
  static String path(URI base, String suffix) {
    String path = base.getRawPath() == null ? "" : base.getRawPath();
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    return path + suffix;
  }

  /** Closes a socket being abandoned; false when closing itself failed (nothing to do then). */
  static boolean closeQuietly(@Nullable Closeable c) {
    if (c == null) {
      return true;
    }
    try {
      c.close();
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
