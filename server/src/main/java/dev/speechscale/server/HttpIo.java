package dev.speechscale.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;

/** Blocking reads and writes on Jetty's core API; callers run on virtual threads. */
final class HttpIo {
  private HttpIo() {}

  /** The body bytes, or empty when it exceeds {@code maxBytes} (the rest is left unread). */
  static java.util.Optional<byte[]> readBody(Request request, int maxBytes) throws IOException {
    long declared = request.getLength();
    if (declared > maxBytes) {
      return java.util.Optional.empty();
    }
    ByteArrayOutputStream body =
        new ByteArrayOutputStream((int) Math.max(0, Math.min(declared, maxBytes)));
    try (InputStream in = Content.Source.asInputStream(request)) {
      byte[] buffer = new byte[8192];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (body.size() + n > maxBytes) {
          return java.util.Optional.empty();
        }
        body.write(buffer, 0, n);
      }
    }
    return java.util.Optional.of(body.toByteArray());
  }

  /** Writes bytes and waits until Jetty accepted them; throws when the client is gone. */
  static void write(Response response, boolean last, byte[] bytes) throws IOException {
    try (Blocker.Callback callback = Blocker.callback()) {
      response.write(last, ByteBuffer.wrap(bytes), callback);
      callback.block();
    }
  }

  /** Sends a complete JSON answer and completes the request's callback. */
  static void json(Response response, Callback callback, int status, Object body) {
    json(response, callback, status, body, Map.of());
  }

  static void json(
      Response response, Callback callback, int status, Object body, Map<String, String> headers) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    headers.forEach((k, v) -> response.getHeaders().put(k, v));
    byte[] bytes =
        (RequestParser.JSON.writeValueAsString(body) + "\n").getBytes(StandardCharsets.UTF_8);
    response.write(true, ByteBuffer.wrap(bytes), callback);
  }

  static void text(
      Response response, Callback callback, int status, String contentType, String body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    Content.Sink.write(response, true, body, callback);
  }
}
