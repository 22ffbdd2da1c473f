package dev.speechscale.platform.local;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;
import org.jspecify.annotations.Nullable;

/**
 * Reads AWS event-stream messages one at a time from a request body, as an AWS SDK client sends
 * them on an HTTP/2 event-stream operation: each event is wrapped in a signed envelope ({@code
 * :date}, a timestamp header, and {@code :chunk-signature}, a byte-array header) whose payload is
 * the event message itself, and an envelope with an empty payload ends the stream.
 *
 * <p>Every header type of the format is decoded (bool, byte, short, int, long, bytes, string,
 * timestamp, uuid); values are kept as text (bytes as hex). Both CRCs are checked; a message over
 * {@code maxMessageBytes} is refused before its bytes are read. Signatures are not verified: the
 * local runtime API takes any credentials, as it does for the other operations.
 */
final class EventStreamReader {
  private static final int PRELUDE_BYTES = 12;
  private static final int CRC_BYTES = 4;

  private final InputStream in;
  private final int maxMessageBytes;

  EventStreamReader(InputStream in, int maxMessageBytes) {
    this.in = in;
    this.maxMessageBytes = maxMessageBytes;
  }

  /** A framing problem: the stream cannot be read further. */
  static final class MalformedException extends IOException {
    private static final long serialVersionUID = 1L;

    MalformedException(String message) {
      super(message);
    }
  }

  /**
   * The next event, unwrapped from its signed envelope; empty at the end of the stream (the
   * envelope with an empty payload, or the body's end).
   */
  java.util.Optional<EventStream.Message> next() throws IOException {
    EventStream.Message m = readMessage();
    if (m == null) {
      return java.util.Optional.empty();
    }
    if (!m.headers().containsKey(":chunk-signature")) {
      return java.util.Optional.of(m);
    }
    if (m.payload().length == 0) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(decode(m.payload()));
  }

  /** One message from the stream, or {@code null} at a clean end between messages. */
  private EventStream.@Nullable Message readMessage() throws IOException {
    byte[] first = new byte[4];
    int got = readFully(first, 0);
    if (got == 0) {
      return null;
    }
    if (got < 4) {
      throw new MalformedException("the event stream ended inside a message's prelude");
    }
    int total = ByteBuffer.wrap(first).getInt();
    if (total < PRELUDE_BYTES + CRC_BYTES || total > maxMessageBytes) {
      throw new MalformedException(
          String.format(
              Locale.ROOT,
              "an event-stream message of %d bytes is outside 16..%d bytes",
              total,
              maxMessageBytes));
    }
    byte[] whole = new byte[total];
    System.arraycopy(first, 0, whole, 0, 4);
    int read = readFully(whole, 4);
    if (read < total) {
      throw new EOFException("the event stream ended after " + read + " of " + total + " bytes");
    }
    return decode(whole);
  }

  /**
   * Fills {@code buffer} from {@code from}, returning how far it got (short only at the end of the
   * body). Not {@link InputStream#readNBytes}: its last call asks for zero bytes, and Jetty's
   * request stream blocks on that until more content arrives, which held every event back until the
   * client sent the next one.
   */
  private int readFully(byte[] buffer, int from) throws IOException {
    int at = from;
    while (at < buffer.length) {
      int n = in.read(buffer, at, buffer.length - at);
      if (n < 0) {
        break;
      }
      at += n;
    }
    return at;
  }

  /** Decodes one complete message, checking both CRCs and every header. */
  static EventStream.Message decode(byte[] whole) throws MalformedException {
    ByteBuffer b = ByteBuffer.wrap(whole);
    if (whole.length < PRELUDE_BYTES + CRC_BYTES) {
      throw new MalformedException("an event-stream message of " + whole.length + " bytes");
    }
    int total = b.getInt();
    int headersLength = b.getInt();
    int preludeCrc = b.getInt();
    if (total != whole.length) {
      throw new MalformedException(
          "the prelude says " + total + " bytes, the message has " + whole.length);
    }
    if (crc(whole, 0, 8) != preludeCrc) {
      throw new MalformedException("event-stream prelude CRC mismatch");
    }
    if (crc(whole, 0, total - CRC_BYTES) != ByteBuffer.wrap(whole, total - 4, 4).getInt()) {
      throw new MalformedException("event-stream message CRC mismatch");
    }
    if (headersLength < 0 || headersLength > total - PRELUDE_BYTES - CRC_BYTES) {
      throw new MalformedException("headers length " + headersLength + " overruns the message");
    }
    Map<String, String> headers = new LinkedHashMap<>();
    int headersEnd = PRELUDE_BYTES + headersLength;
    try {
      while (b.position() < headersEnd) {
        byte[] name = new byte[b.get() & 0xFF];
        b.get(name);
        headers.put(new String(name, StandardCharsets.UTF_8), value(b));
      }
    } catch (java.nio.BufferUnderflowException e) {
      throw new MalformedException("a header overruns the message's headers");
    }
    if (b.position() != headersEnd) {
      throw new MalformedException("a header overruns the message's headers");
    }
    byte[] payload = new byte[total - headersEnd - CRC_BYTES];
    b.get(payload);
    return new EventStream.Message(headers, payload);
  }

  private static String value(ByteBuffer b) throws MalformedException {
    byte type = b.get();
    return switch (type) {
      case 0 -> "true";
      case 1 -> "false";
      case 2 -> Byte.toString(b.get());
      case 3 -> Short.toString(b.getShort());
      case 4 -> Integer.toString(b.getInt());
      case 5, 8 -> Long.toString(b.getLong());
      case 6 -> HexFormat.of().formatHex(bytes(b));
      case 7 -> new String(bytes(b), StandardCharsets.UTF_8);
      case 9 -> new java.util.UUID(b.getLong(), b.getLong()).toString();
      default -> throw new MalformedException("unknown event-stream header type " + type);
    };
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] v = new byte[b.getShort() & 0xFFFF];
    b.get(v);
    return v;
  }

  private static int crc(byte[] bytes, int offset, int length) {
    CRC32 crc = new CRC32();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}
