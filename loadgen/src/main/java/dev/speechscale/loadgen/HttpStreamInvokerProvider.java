package dev.speechscale.loadgen;

import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerProvider;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.Transport;

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
    return new SocketInvoker(target, Transport.HTTP_STREAM, PATH, HttpStreamConnection::new);
  }
}
