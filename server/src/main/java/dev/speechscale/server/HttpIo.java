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
  record Body(byte[] bytes, boolean drained) {
    boolean tooLarge() {
      return bytes == null;
    }
  }

  /**
   * The start of a body, taken without waiting: {@code complete} when it is the whole body. A small
   * body usually arrives with its headers, so this is the whole body in the common case.
   */
  record Prefix(byte[] bytes, boolean complete) {
    static final Prefix NONE = new Prefix(new byte[0], false);
  }

  /**
   * Takes whatever part of the body Jetty has already received, without blocking, stopping once
   * more than {@code maxBytes} arrived. A body declared larger than {@code maxBytes} is not touched
   * ({@link Prefix#NONE}), so {@link #readBody} decides about it as before. A body the client broke
   * off is left incomplete too: the failure stays in the request, and {@link #readBody} meets it on
   * the blocking path, after Jetty itself has seen the connection end (failing the request from
   * here, first, made Jetty try to write a 500 to the gone client and log a warning each time).
   */
  static Prefix readAvailable(Request request, int maxBytes) {
    long declared = request.getLength();
    if (declared > maxBytes) {
      return Prefix.NONE;
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream((int) Math.max(declared, 0));
    while (body.size() <= maxBytes) {
      Content.Chunk chunk = request.read();
      if (chunk == null || Content.Chunk.isFailure(chunk)) {
        return new Prefix(body.toByteArray(), false);
      }
      try {
        ByteBuffer bytes = chunk.getByteBuffer();
        byte[] copy = new byte[bytes.remaining()];
        bytes.get(copy);
        body.write(copy, 0, copy.length);
        if (chunk.isLast()) {
          return new Prefix(body.toByteArray(), true);
        }
      } finally {
        chunk.release();
      }
    }
    return new Prefix(body.toByteArray(), false);
  }

  /**
   * Reads the body up to {@code maxBytes}; an oversized one is read and discarded up to {@code
   * drainBytes} more, then left. {@code prefix} is what {@link #readAvailable} already took.
   */
  static Body readBody(Request request, byte[] prefix, int maxBytes, long drainBytes)
      throws IOException {
    long declared = request.getLength();
    ByteArrayOutputStream body = new ByteArrayOutputStream((int) Math.clamp(declared, 0, maxBytes));
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
        (RequestParser.JSON.writeValueAsString(body) + "\n").getBytes(StandardCharsets.UTF_8);
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
