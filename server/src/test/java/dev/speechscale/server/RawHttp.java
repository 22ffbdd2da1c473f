package dev.speechscale.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A minimal HTTP/1.1 client over a raw socket, for what well-behaved clients never do: invalid
 * bytes, bodies cut short, hanging up mid-stream.
 */
final class RawHttp {
  private RawHttp() {}

  @SuppressWarnings("ArrayRecordComponent") // a test value, never compared or hashed
  record Reply(int status, byte[] body) {}

  static byte[] head(int contentLength) {
    return ("POST /invocations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Connection: close\r\nContent-Length: "
            + contentLength
            + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** Sends a complete request with an arbitrary body and reads the whole reply. */
  static Reply post(int port, byte[] body) throws IOException {
    try (Socket socket = new Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(60_000);
      OutputStream out = socket.getOutputStream();
      out.write(head(body.length));
      out.write(body);
      out.flush();
      return read(socket.getInputStream());
    }
  }

  /**
   * Sends a complete request whose body arrives in two writes {@code pause} apart, so the server
   * sees the first part of the body without the rest, and reads the whole reply.
   */
  static Reply postInTwoParts(int port, byte[] body, int split, java.time.Duration pause)
      throws IOException, InterruptedException {
    try (Socket socket = new Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(60_000);
      socket.setTcpNoDelay(true);
      OutputStream out = socket.getOutputStream();
      out.write(head(body.length));
      out.write(body, 0, split);
      out.flush();
      Thread.sleep(pause);
      out.write(body, split, body.length - split);
      out.flush();
      return read(socket.getInputStream());
    }
  }

  /** Declares {@code declared} bytes, sends only {@code sent}, then hangs up. */
  static void hangUpMidBody(int port, int declared, byte[] sent) throws IOException {
    try (Socket socket = new Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
      OutputStream out = socket.getOutputStream();
      out.write(head(declared));
      out.write(sent);
      out.flush();
    }
  }

  /** Sends a valid streaming request, reads until some audio arrived, then hangs up. */
  static int hangUpMidStream(int port, String json) throws IOException {
    try (Socket socket = new Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(60_000);
      byte[] body = json.getBytes(StandardCharsets.UTF_8);
      OutputStream out = socket.getOutputStream();
      out.write(head(body.length));
      out.write(body);
      out.flush();
      byte[] buffer = new byte[512];
      int n = socket.getInputStream().read(buffer);
      String start = new String(buffer, 0, Math.max(0, n), StandardCharsets.ISO_8859_1);
      return start.startsWith("HTTP/1.1 ") ? Integer.parseInt(start.substring(9, 12)) : -1;
    }
  }

  private static Reply read(InputStream in) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    in.transferTo(all);
    byte[] bytes = all.toByteArray();
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    int status = text.startsWith("HTTP/1.1 ") ? Integer.parseInt(text.substring(9, 12)) : -1;
    int headerEnd = text.indexOf("\r\n\r\n");
    byte[] body = new byte[0];
    if (headerEnd >= 0) {
      byte[] raw = java.util.Arrays.copyOfRange(bytes, headerEnd + 4, bytes.length);
      body =
          text.substring(0, headerEnd)
                  .toLowerCase(java.util.Locale.ROOT)
                  .contains("transfer-encoding: chunked")
              ? dechunk(raw)
              : raw;
    }
    return new Reply(status, body);
  }

  private static byte[] dechunk(byte[] raw) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int p = 0;
    while (p < raw.length) {
      int eol = p;
      while (eol + 1 < raw.length && !(raw[eol] == '\r' && raw[eol + 1] == '\n')) {
        eol++;
      }
      int size =
          Integer.parseInt(new String(raw, p, eol - p, StandardCharsets.US_ASCII).strip(), 16);
      if (size == 0) {
        break;
      }
      out.write(raw, eol + 2, size);
      p = eol + 2 + size + 2;
    }
    return out.toByteArray();
  }
}
