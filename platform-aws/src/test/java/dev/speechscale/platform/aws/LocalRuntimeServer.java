package dev.speechscale.platform.aws;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A stand-in for the SageMaker Runtime API on 127.0.0.1: {@code POST
 * /endpoints/{name}/invocations-response-stream} answers with the reply the test sets — a 200 with
 * event-stream frames written and flushed one by one, or an error as the service reports it (a
 * status, an {@code x-amzn-ErrorType} header and a JSON body).
 */
final class LocalRuntimeServer implements AutoCloseable {
  /** What the next requests get. */
  sealed interface Reply {
    /** 200 with these event-stream frames. */
    record Stream(List<byte[]> frames) implements Reply {}

    /** An error response. */
    record Failure(int status, String errorType, String jsonBody) implements Reply {}
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final AtomicReference<Reply> reply = new AtomicReference<>();
  private final AtomicReference<String> lastBody = new AtomicReference<>();
  private final AtomicReference<String> lastPath = new AtomicReference<>();
  private final AtomicInteger requests = new AtomicInteger();

  LocalRuntimeServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/endpoints/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  void reply(Reply next) {
    reply.set(next);
  }

  String lastBody() {
    return lastBody.get();
  }

  String lastPath() {
    return lastPath.get();
  }

  /** Requests served so far. */
  int requests() {
    return requests.get();
  }

  /** A WAV stream: the 44-byte header, then {@code audio} PCM bytes, split at the given sizes. */
  static List<byte[]> wavFrames(int audio, int... partSizes) {
    byte[] all = new byte[WavAudioMeter.WAV_HEADER_BYTES + audio];
    byte[] riff = "RIFF".getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(riff, 0, all, 0, 4);
    for (int i = WavAudioMeter.WAV_HEADER_BYTES; i < all.length; i++) {
      all[i] = (byte) i;
    }
    java.util.ArrayList<byte[]> frames = new java.util.ArrayList<>();
    int at = 0;
    for (int size : partSizes) {
      frames.add(EventStreamEncoder.payloadPart(java.util.Arrays.copyOfRange(all, at, at + size)));
      at += size;
    }
    if (at < all.length) {
      frames.add(EventStreamEncoder.payloadPart(java.util.Arrays.copyOfRange(all, at, all.length)));
    }
    return List.copyOf(frames);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      requests.incrementAndGet();
      lastPath.set(exchange.getRequestURI().getPath());
      lastBody.set(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      switch (reply.get()) {
        case Reply.Stream s -> {
          exchange.getResponseHeaders().set("Content-Type", "application/vnd.amazon.eventstream");
          exchange.getResponseHeaders().set("X-Amzn-SageMaker-Content-Type", "audio/wav");
          exchange.sendResponseHeaders(200, 0);
          OutputStream out = exchange.getResponseBody();
          for (byte[] frame : s.frames()) {
            out.write(frame);
            out.flush();
          }
        }
        case Reply.Failure e -> {
          byte[] body = e.jsonBody().getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.getResponseHeaders().set("x-amzn-ErrorType", e.errorType());
          exchange.sendResponseHeaders(e.status(), body.length);
          exchange.getResponseBody().write(body);
        }
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.close();
  }
}
