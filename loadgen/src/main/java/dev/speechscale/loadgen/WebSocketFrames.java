package dev.speechscale.loadgen;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * RFC 6455 framing, the small part a client needs: write (masked) frames, read frames of either
 * direction, and the handshake key check. Binary payloads can be skipped rather than copied, since
 * the load generator only counts audio bytes.
 */
final class WebSocketFrames {
  static final int CONTINUATION = 0x0;
  static final int TEXT = 0x1;
  static final int BINARY = 0x2;
  static final int CLOSE = 0x8;
  static final int PING = 0x9;
  static final int PONG = 0xA;

  /** Largest text or control payload kept in memory. */
  static final int MAX_KEPT_PAYLOAD = 1 << 20;

  private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

  private WebSocketFrames() {}

  /**
   * One frame as read.
   *
   * @param fin last frame of its message
   * @param opcode the opcode
   * @param length payload length
   * @param payload the (unmasked) payload, or {@code null} when a binary payload was skipped
   * @param arrivalNanos when the buffer fill carrying the frame's first byte arrived
   */
  @SuppressWarnings("ArrayRecordComponent") // read once by its one consumer, never compared
  record Frame(boolean fin, int opcode, long length, byte @Nullable [] payload, long arrivalNanos) {
    /** The payload as UTF-8; only for a kept payload (text, continuation of text, control). */
    String text() {
      return new String(
          java.util.Objects.requireNonNull(payload, "a skipped binary payload has no text"),
          StandardCharsets.UTF_8);
    }
  }

  static void write(OutputStream out, int opcode, byte[] payload, boolean mask) throws IOException {
    int n = payload.length;
    int headerLength = 2 + (n < 126 ? 0 : n < 65536 ? 2 : 8) + (mask ? 4 : 0);
    byte[] frame = new byte[headerLength + n];
    frame[0] = (byte) (0x80 | opcode);
    int p = 2;
    if (n < 126) {
      frame[1] = (byte) n;
    } else if (n < 65536) {
      frame[1] = 126;
      frame[p++] = (byte) (n >>> 8);
      frame[p++] = (byte) n;
    } else {
      frame[1] = 127;
      for (int shift = 56; shift >= 0; shift -= 8) {
        frame[p++] = (byte) ((long) n >>> shift);
      }
    }
    if (mask) {
      frame[1] |= (byte) 0x80;
      byte[] key = new byte[4];
      ThreadLocalRandom.current().nextBytes(key);
      System.arraycopy(key, 0, frame, p, 4);
      p += 4;
      for (int i = 0; i < n; i++) {
        frame[p + i] = (byte) (payload[i] ^ key[i & 3]);
      }
    } else {
      System.arraycopy(payload, 0, frame, p, n);
    }
    out.write(frame);
    out.flush();
  }

  /**
   * Reads one frame.
   *
   * @param keepBinary copy binary and continuation payloads (otherwise they are skipped)
   */
  static Frame read(SocketInput in, boolean keepBinary) throws IOException {
    int b0 = in.readByte();
    long arrival = in.fillNanos();
    int b1 = in.readByte();
    boolean fin = (b0 & 0x80) != 0;
    int opcode = b0 & 0x0f;
    boolean masked = (b1 & 0x80) != 0;
    long length = b1 & 0x7f;
    if (length == 126) {
      length = (long) in.readByte() << 8 | in.readByte();
    } else if (length == 127) {
      length = 0;
      for (int i = 0; i < 8; i++) {
        length = length << 8 | in.readByte();
      }
      if (length < 0) {
        throw new IOException("WebSocket frame length overflows");
      }
    }
    byte[] key = masked ? in.readFully(4) : null;
    boolean keep = keepBinary || (opcode != BINARY && opcode != CONTINUATION);
    if (!keep) {
      long skipped = in.deliver(length, (bytes, off, len, at) -> {});
      if (skipped != length) {
        throw new IOException("connection closed inside a " + length + "-byte frame");
      }
      return new Frame(fin, opcode, length, null, arrival);
    }
    if (length > MAX_KEPT_PAYLOAD) {
      throw new IOException(
          "WebSocket frame of " + length + " bytes exceeds " + MAX_KEPT_PAYLOAD + " bytes");
    }
    byte[] payload = in.readFully((int) length);
    if (key != null) {
      for (int i = 0; i < payload.length; i++) {
        payload[i] ^= key[i & 3];
      }
    }
    return new Frame(fin, opcode, length, payload, arrival);
  }

  /**
   * Sends the upgrade request for {@code path} and reads the answer. A 101 is checked against our
   * key; any other status is returned for the caller to report (its body still unread).
   *
   * @throws IOException when the 101 carries the wrong Sec-WebSocket-Accept, or the I/O fails
   */
  static HttpHead handshake(SocketInput in, OutputStream out, String hostHeader, String path)
      throws IOException {
    String key = newKey();
    out.write(
        ("GET "
                + path
                + " HTTP/1.1\r\nHost: "
                + hostHeader
                + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: "
                + key
                + "\r\nSec-WebSocket-Version: 13\r\nUser-Agent: speechscale-loadgen\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    HttpHead head = HttpHead.read(in);
    if (head.status() == 101 && !accept(key).equals(head.webSocketAccept())) {
      throw new IOException(
          "the WebSocket upgrade answered Sec-WebSocket-Accept "
              + head.webSocketAccept()
              + ", not the value for our key");
    }
    return head;
  }

  /** A fresh Sec-WebSocket-Key. */
  static String newKey() {
    byte[] nonce = new byte[16];
    ThreadLocalRandom.current().nextBytes(nonce);
    return Base64.getEncoder().encodeToString(nonce);
  }

  /** The Sec-WebSocket-Accept a server must answer to {@code key}. */
  static String accept(String key) {
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      return Base64.getEncoder()
          .encodeToString(sha1.digest((key + GUID).getBytes(StandardCharsets.US_ASCII)));
    } catch (NoSuchAlgorithmException e) {
      throw new LoadgenException("the JDK has no SHA-1, which the WebSocket handshake needs", e);
    }
  }

  /** A close payload: status code then a UTF-8 reason. */
  static byte[] closePayload(int code, String reason) {
    byte[] text = reason.getBytes(StandardCharsets.UTF_8);
    byte[] payload = new byte[2 + text.length];
    payload[0] = (byte) (code >>> 8);
    payload[1] = (byte) code;
    System.arraycopy(text, 0, payload, 2, text.length);
    return payload;
  }
}
