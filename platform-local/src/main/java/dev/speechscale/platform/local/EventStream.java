package dev.speechscale.platform.local;

import dev.speechscale.platform.JsonText;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;
import org.jspecify.annotations.Nullable;

/**
 * AWS event-stream framing ({@code application/vnd.amazon.eventstream}), as SageMaker Runtime's
 * InvokeEndpointWithResponseStream sends it: each message is a 12-byte prelude (total length,
 * headers length, CRC32 of those 8 bytes), string headers, the payload, and a CRC32 of everything
 * before it.
 */
final class EventStream {
  private static final byte STRING = 7;

  private EventStream() {}

  /** A {@code PayloadPart} event carrying raw bytes. */
  static byte[] payloadPart(byte[] bytes) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(":event-type", "PayloadPart");
    headers.put(":content-type", "application/octet-stream");
    headers.put(":message-type", "event");
    return message(headers, bytes);
  }

  /** An exception event ({@code ModelStreamError}, {@code InternalStreamFailure}). */
  static byte[] exception(String exceptionType, String message, @Nullable String errorCode) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(":exception-type", exceptionType);
    headers.put(":content-type", "application/json");
    headers.put(":message-type", "exception");
    String json =
        "{\"Message\":"
            + JsonText.quoted(message)
            + (errorCode == null ? "" : ",\"ErrorCode\":" + JsonText.quoted(errorCode))
            + "}";
    return message(headers, json.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] message(Map<String, String> headers, byte[] payload) {
    ByteArrayOutputStream h = new ByteArrayOutputStream();
    headers.forEach((name, value) -> {
      byte[] n = name.getBytes(StandardCharsets.UTF_8);
      byte[] v = value.getBytes(StandardCharsets.UTF_8);
      h.write(n.length);
      h.writeBytes(n);
      h.write(STRING);
      h.write((v.length >>> 8) & 0xFF);
      h.write(v.length & 0xFF);
      h.writeBytes(v);
    });
    byte[] headerBytes = h.toByteArray();
    int total = 12 + headerBytes.length + payload.length + 4;
    ByteBuffer b = ByteBuffer.allocate(total);
    b.putInt(total);
    b.putInt(headerBytes.length);
    b.putInt((int) crc(b.array(), 0, 8));
    b.put(headerBytes);
    b.put(payload);
    b.putInt((int) crc(b.array(), 0, total - 4));
    return b.array();
  }

  /**
   * One decoded message, for tests and diagnostics.
   *
   * @param headers string headers
   * @param payload the payload
   */
  record Message(Map<String, String> headers, byte[] payload) {}

  /** Decodes one message at the buffer's position, checking both CRCs. */
  static Message decode(ByteBuffer in) {
    int start = in.position();
    int total = in.getInt();
    int headersLength = in.getInt();
    int preludeCrc = in.getInt();
    if ((int) crc(slice(in, start, 8), 0, 8) != preludeCrc) {
      throw new IllegalArgumentException("event-stream prelude CRC mismatch");
    }
    Map<String, String> headers = new LinkedHashMap<>();
    int headersEnd = in.position() + headersLength;
    while (in.position() < headersEnd) {
      byte[] name = new byte[in.get() & 0xFF];
      in.get(name);
      byte type = in.get();
      if (type != STRING) {
        throw new IllegalArgumentException("only string headers are supported, got type " + type);
      }
      byte[] value = new byte[in.getShort() & 0xFFFF];
      in.get(value);
      headers.put(
          new String(name, StandardCharsets.UTF_8), new String(value, StandardCharsets.UTF_8));
    }
    byte[] payload = new byte[total - 12 - headersLength - 4];
    in.get(payload);
    int messageCrc = in.getInt();
    if ((int) crc(slice(in, start, total - 4), 0, total - 4) != messageCrc) {
      throw new IllegalArgumentException("event-stream message CRC mismatch");
    }
    return new Message(headers, payload);
  }

  private static byte[] slice(ByteBuffer in, int from, int length) {
    byte[] out = new byte[length];
    in.duplicate().position(from).get(out);
    return out;
  }

  private static long crc(byte[] bytes, int offset, int length) {
    CRC32 crc = new CRC32();
    crc.update(bytes, offset, length);
    return crc.getValue();
  }
}
