package dev.speechscale.platform.local;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The events of InvokeEndpointWithBidirectionalStream and the WebSocket frames they stand for, as
 * SageMaker maps them for a container that carries the bidirectional-streaming label: a request
 * {@code PayloadPart} whose {@code DataType} header is {@code UTF8} is a text frame, {@code BINARY}
 * (or no header) a binary frame; {@code CompletionState: PARTIAL} parts are joined until a part
 * without it. The container's text and binary frames come back as response {@code PayloadPart}
 * events with the matching {@code DataType}.
 */
final class BidiEvents {
  static final String UTF8 = "UTF8";
  static final String BINARY = "BINARY";

  private BidiEvents() {}

  /** One WebSocket message: text or binary. */
  sealed interface Frame {
    /** A text frame. */
    record Text(String text) implements Frame {}

    /** A binary frame. */
    record Binary(byte[] bytes) implements Frame {}
  }

  /** A request event that breaks the operation's rules; the message names the rule. */
  static final class BadEventException extends Exception {
    private static final long serialVersionUID = 1L;

    BadEventException(String message) {
      super(message);
    }
  }

  /** A response {@code PayloadPart} carrying one frame from the container. */
  static byte[] payloadPart(byte[] bytes, String dataType) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(":event-type", "PayloadPart");
    headers.put(":content-type", "application/octet-stream");
    headers.put(":message-type", "event");
    headers.put("DataType", dataType);
    headers.put("CompletionState", "COMPLETE");
    return EventStream.message(headers, bytes);
  }

  /** Joins request parts into frames, one client stream's worth of state. */
  static final class Assembler {
    private final int maxFrameBytes;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private @Nullable String pendingType;

    Assembler(int maxFrameBytes) {
      this.maxFrameBytes = maxFrameBytes;
    }

    /** The frame this event completes, or empty while parts are pending. */
    Optional<Frame> accept(EventStream.Message event) throws BadEventException {
      String messageType = event.headers().getOrDefault(":message-type", "event");
      String eventType = event.headers().get(":event-type");
      if (!"event".equals(messageType) || !"PayloadPart".equals(eventType)) {
        throw new BadEventException(
            "the request stream carries "
                + messageType
                + " '"
                + eventType
                + "'; InvokeEndpointWithBidirectionalStream takes only PayloadPart events");
      }
      String dataType = event.headers().getOrDefault("DataType", BINARY);
      if (!UTF8.equals(dataType) && !BINARY.equals(dataType)) {
        throw new BadEventException(
            "PayloadPart DataType '"
                + dataType
                + "' is not one of UTF8, BINARY; send UTF8 for a text frame, BINARY for binary");
      }
      String state = event.headers().getOrDefault("CompletionState", "COMPLETE");
      if (!"COMPLETE".equals(state) && !"PARTIAL".equals(state)) {
        throw new BadEventException(
            "PayloadPart CompletionState '" + state + "' is not one of PARTIAL, COMPLETE");
      }
      if (pendingType != null && !pendingType.equals(dataType)) {
        throw new BadEventException(
            "a PARTIAL "
                + pendingType
                + " part was followed by a "
                + dataType
                + " part; every part of one message has the same DataType");
      }
      if (pending.size() + event.payload().length > maxFrameBytes) {
        throw new BadEventException(
            "one message would exceed "
                + maxFrameBytes
                + " bytes; split the input into smaller messages");
      }
      pending.writeBytes(event.payload());
      if ("PARTIAL".equals(state)) {
        pendingType = dataType;
        return Optional.empty();
      }
      byte[] bytes = pending.toByteArray();
      pending.reset();
      pendingType = null;
      return Optional.of(
          UTF8.equals(dataType) ? new Frame.Text(utf8(bytes)) : new Frame.Binary(bytes));
    }

    private static String utf8(byte[] bytes) throws BadEventException {
      try {
        return StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(bytes))
            .toString();
      } catch (CharacterCodingException e) {
        throw new BadEventException(
            "a UTF8 PayloadPart is not valid UTF-8; send it as BINARY or fix its encoding");
      }
    }
  }
}
