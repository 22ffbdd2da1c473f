package dev.speechscale.platform.aws;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Encodes AWS event-stream messages, the framing of InvokeEndpointWithResponseStream (and of the
 * local runtime API that stands in for SageMaker). Reusable by any test that serves the runtime
 * API.
 *
 * <p>One message, all integers big-endian:
 *
 * <pre>
 * [total length: uint32][headers length: uint32][prelude CRC32 of the previous 8 bytes: uint32]
 * [headers][payload][message CRC32 of everything before it: uint32]
 * </pre>
 *
 * Each header: name length (uint8), name (UTF-8), value type (uint8; 7 = string), value length
 * (uint16), value (UTF-8). A payload part is an event with {@code :event-type PayloadPart}, {@code
 * :content-type application/octet-stream}, {@code :message-type event} and the raw bytes as
 * payload; a mid-stream failure is an exception message ({@code :message-type exception}, {@code
 * :exception-type ModelStreamError}) with a JSON payload {@code {"Message":..., "ErrorCode":...}}.
 */
public final class EventStreamEncoder {
  private static final byte STRING = 7;

  private EventStreamEncoder() {}

  /** A PayloadPart event carrying {@code bytes}. */
  public static byte[] payloadPart(byte[] bytes) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(":event-type", "PayloadPart");
    headers.put(":content-type", "application/octet-stream");
    headers.put(":message-type", "event");
    return message(headers, bytes);
  }

  /** A ModelStreamError exception event. */
  public static byte[] modelStreamError(String errorCode, String message) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(":exception-type", "ModelStreamError");
    headers.put(":content-type", "application/json");
    headers.put(":message-type", "exception");
    String json = "{\"Message\":\"" + message + "\",\"ErrorCode\":\"" + errorCode + "\"}";
    return message(headers, json.getBytes(StandardCharsets.UTF_8));
  }

  /** One message with string headers, in the order given. */
  public static byte[] message(Map<String, String> headers, byte[] payload) {
    ByteArrayOutputStream h = new ByteArrayOutputStream();
    for (Map.Entry<String, String> e : headers.entrySet()) {
      byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
      byte[] value = e.getValue().getBytes(StandardCharsets.UTF_8);
      h.write(name.length);
      h.writeBytes(name);
      h.write(STRING);
      h.write((value.length >>> 8) & 0xff);
      h.write(value.length & 0xff);
      h.writeBytes(value);
    }
    byte[] headerBytes = h.toByteArray();
    int total = 12 + headerBytes.length + payload.length + 4;
    ByteBuffer b = ByteBuffer.allocate(total);
    b.putInt(total).putInt(headerBytes.length);
    b.putInt((int) crc(b.array(), 0, 8));
    b.put(headerBytes).put(payload);
    b.putInt((int) crc(b.array(), 0, total - 4));
    return b.array();
  }

  private static long crc(byte[] bytes, int from, int length) {
    CRC32 c = new CRC32();
    c.update(bytes, from, length);
    return c.getValue();
  }
}
