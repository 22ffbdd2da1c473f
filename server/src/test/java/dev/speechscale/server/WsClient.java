package dev.speechscale.server;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A JDK WebSocket client that queues whole messages: Strings for text, byte[] for binary. */
final class WsClient implements WebSocket.Listener, AutoCloseable {
  final BlockingQueue<Object> messages = new LinkedBlockingQueue<>();
  final WebSocket socket;
  private final HttpClient http = HttpClient.newHttpClient();
  private final StringBuilder text = new StringBuilder();
  private final ByteArrayOutputStream binary = new ByteArrayOutputStream();
  volatile boolean closed;

  WsClient(int port) {
    socket =
        http.newWebSocketBuilder()
            .buildAsync(URI.create("ws://127.0.0.1:" + port + SpeechServer.BIDI_PATH), this)
            .join();
  }

  @Override
  public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
    text.append(data);
    if (last) {
      messages.add(text.toString());
      text.setLength(0);
    }
    ws.request(1);
    return null;
  }

  @Override
  public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
    byte[] b = new byte[data.remaining()];
    data.get(b);
    binary.writeBytes(b);
    if (last) {
      messages.add(binary.toByteArray());
      binary.reset();
    }
    ws.request(1);
    return null;
  }

  @Override
  public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
    closed = true;
    messages.add("closed:" + statusCode);
    return null;
  }

  void sendText(String json) {
    socket.sendText(json, true).join();
  }

  void sendBinary(String json) {
    socket.sendBinary(ByteBuffer.wrap(json.getBytes(StandardCharsets.UTF_8)), true).join();
  }

  Object next() throws InterruptedException {
    Object m = messages.poll(30, TimeUnit.SECONDS);
    if (m == null) {
      throw new AssertionError("no WebSocket message within 30 s");
    }
    return m;
  }

  String nextText() throws InterruptedException {
    Object m = next();
    if (!(m instanceof String s)) {
      throw new AssertionError("expected a text message, got " + ((byte[]) m).length + " bytes");
    }
    return s;
  }

  @Override
  public void close() {
    socket.abort();
    http.close();
  }

  static Duration timeout() {
    return Duration.ofSeconds(30);
  }
}
