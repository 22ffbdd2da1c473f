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
import org.jspecify.annotations.Nullable;

/**
 * Reads and writes on Jetty's core API: {@link #readAvailable} never blocks (I/O threads may call
 * it); the rest block, so their callers run on virtual threads.
 */
final class HttpIo {
  private HttpIo() {}

  /**
   * A request body: {@code bytes} when within the bound, else null; {@code drained} tells whether
   * an oversized body was read to its end (so the connection can stay open and the client, still
   * sending, is sure to see the 413 instead of a reset).
   */
  @SuppressWarnings("ArrayRecordComponent") // handed over once, never compared or hashed
  record Body(byte @Nullable [] bytes, boolean drained) {}

  /**
   * The start of a body, taken without waiting: {@code complete} when it is the whole body. A small
   * body usually arrives with its headers, so this is the whole body in the common case.
   */
  @SuppressWarnings("ArrayRecordComponent") // handed over once, never compared or hashed
  record Prefix(byte[] bytes, boolean complete) {
    static final Prefix NONE = new Prefix(new byte[0], false);
  }

  /**
   * Takes the first part of the body Jetty has already parsed, without blocking and with one read:
   * {@code complete} when it is the whole body (the last chunk, or as many bytes as Content-Length
   * declares). Only a body with a Content-Length within {@code maxBytes} is read here; anything
   * else — chunked, oversized, not arrived yet, broken off — is left to {@link #readBody} on the
   * blocking path ({@link Prefix#NONE} or an incomplete prefix). One read only, on purpose: a
   * second read makes Jetty fill from the socket on this thread, and a client that hung up mid-body
   * is then found here, before Jetty's own bookkeeping of the request has seen it, so failing the
   * request makes Jetty try to answer the gone client with a 500 and log a warning each time.
   */
  static Prefix readAvailable(Request request, int maxBytes) {
    long declared = request.getLength();
    if (declared < 0 || declared > maxBytes) {
      return Prefix.NONE;
    }
    Content.Chunk chunk = request.read();
    if (chunk == null || Content.Chunk.isFailure(chunk)) {
      return Prefix.NONE;
    }
    try {
      ByteBuffer bytes = chunk.getByteBuffer();
      byte[] copy = new byte[bytes.remaining()];
      bytes.get(copy);
      return new Prefix(copy, chunk.isLast() || copy.length == declared);
    } finally {
      chunk.release();
    }
  }

  /**
   * Reads the body up to {@code maxBytes}; an oversized one is read and discarded up to {@code
   * drainBytes} more, then left. {@code prefix} is what {@link #readAvailable} already took.
   */
  static Body readBody(Request request, byte[] prefix, int maxBytes, long drainBytes)
      throws IOException {
    long declared = request.getLength();
    ByteArrayOutputStream body = new ByteArrayOutputStream(Math.clamp(declared, 0, maxBytes));
    long total = prefix.length;
    if (total <= maxBytes) {
      body.write(prefix, 0, prefix.length);
    }
    try (InputStream in = Content.Source.asInputStream(request)) {
      if (declared > maxBytes + drainBytes) {
        return new Body(null, false);
      }
      byte[] buffer = new byte[8192];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        total += n;
        if (total > maxBytes + drainBytes) {
          return new Body(null, false);
        }
        if (total <= maxBytes) {
          body.write(buffer, 0, n);
        }
      }
    }
    return total > maxBytes ? new Body(null, true) : new Body(body.toByteArray(), true);
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
        (RequestParser.JSON.writeValueAsString(errorFirst(body)) + "\n")
            .getBytes(StandardCharsets.UTF_8);
    response.write(true, ByteBuffer.wrap(bytes), callback);
  }

  /** JSON objects list {@code error} first, so every error body reads {"error": ...}. */
  private static Object errorFirst(Object body) {
    if (!(body instanceof Map<?, ?> map) || !map.containsKey("error")) {
      return body;
    }
    Map<Object, Object> ordered = new java.util.LinkedHashMap<>();
    ordered.put("error", map.get("error"));
    map.forEach(ordered::putIfAbsent);
    return ordered;
  }

  static void text(
      Response response, Callback callback, int status, String contentType, String body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
    Content.Sink.write(response, true, body, callback);
  }
}
