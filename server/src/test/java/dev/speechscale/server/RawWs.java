package dev.speechscale.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A WebSocket client on a bare socket, for clients a library would not be: one that never reads,
 * one that drops the TCP connection mid-session. Sends masked text frames; reads nothing unless
 * asked.
 */
final class RawWs implements AutoCloseable {
  final Socket socket = new Socket();

  /** Connects with a small receive buffer (so a client that does not read fills it soon). */
  RawWs(int port, String path) throws IOException {
    socket.setReceiveBufferSize(4096);
    socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
    socket.setSoTimeout(30_000);
    String head =
        "GET "
            + path
            + " HTTP/1.1\r\nHost: 127.0.0.1:"
            + port
            + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
    String response = readHead(socket.getInputStream());
    if (!response.startsWith("HTTP/1.1 101")) {
      throw new IOException("upgrade refused: " + response);
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < 4) {
      int c = in.read();
      if (c < 0) {
        throw new IOException("connection closed in the upgrade response: " + head);
      }
      head.write(c);
      matched = c == end[matched] ? matched + 1 : (c == '\r' ? 1 : 0);
    }
    return head.toString(StandardCharsets.US_ASCII);
  }

  /** Sends one masked text frame. */
  void sendText(String text) throws IOException {
    byte[] payload = text.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    frame.write(0x81);
    if (payload.length < 126) {
      frame.write(0x80 | payload.length);
    } else {
      frame.write(0x80 | 126);
      frame.write(payload.length >>> 8);
      frame.write(payload.length & 0xff);
    }
    byte[] mask = {1, 2, 3, 4};
    frame.writeBytes(mask);
    for (int i = 0; i < payload.length; i++) {
      frame.write(payload[i] ^ mask[i % 4]);
    }
    socket.getOutputStream().write(frame.toByteArray());
    socket.getOutputStream().flush();
  }

  /** Reads and discards at least {@code bytes} bytes of frames (bounded by the read timeout). */
  void readAtLeast(int bytes) throws IOException {
    byte[] sink = new byte[bytes];
    if (socket.getInputStream().readNBytes(sink, 0, bytes) < bytes) {
      throw new IOException("the server closed before sending " + bytes + " bytes");
    }
  }

  /**
   * Reads and discards until the server ends the connection (EOF or reset); false when it is still
   * open after the socket's 30 s read timeout.
   */
  boolean drainUntilClosed() {
    byte[] sink = new byte[64 * 1024];
    try {
      InputStream in = socket.getInputStream();
      while (in.read(sink) >= 0) {
        // discard
      }
      return true;
    } catch (java.net.SocketTimeoutException e) {
      return false;
    } catch (IOException reset) {
      return true;
    }
  }

  /** Drops the TCP connection without a close frame. */
  @Override
  public void close() throws IOException {
    socket.setSoLinger(true, 0);
    socket.close();
  }
}
