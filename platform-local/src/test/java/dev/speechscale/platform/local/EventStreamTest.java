package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EventStreamTest {

  @Test
  void payloadPart_roundTripsWithItsHeaders() {
    byte[] frame = EventStream.payloadPart(new byte[] {1, 2, 3});

    EventStream.Message m = EventStream.decode(ByteBuffer.wrap(frame));

    assertThat(m.headers())
        .containsEntry(":event-type", "PayloadPart")
        .containsEntry(":message-type", "event");
    assertThat(m.payload()).containsExactly(1, 2, 3);
    assertThat(ByteBuffer.wrap(frame).getInt()).isEqualTo(frame.length);
  }

  @Test
  void exception_carriesAJsonMessage() {
    EventStream.Message m =
        EventStream.decode(
            ByteBuffer.wrap(EventStream.exception("ModelStreamError", "a \"b\"", "ModelError")));

    assertThat(m.headers())
        .containsEntry(":exception-type", "ModelStreamError")
        .containsEntry(":message-type", "exception");
    assertThat(new String(m.payload(), StandardCharsets.UTF_8))
        .isEqualTo("{\"Message\":\"a \\\"b\\\"\",\"ErrorCode\":\"ModelError\"}");
  }

  @Test
  void decode_corruptedByte_failsTheCrc() {
    byte[] frame = EventStream.payloadPart(new byte[] {1, 2, 3});
    frame[frame.length - 6] ^= 1;

    assertThatThrownBy(() -> EventStream.decode(ByteBuffer.wrap(frame)))
        .hasMessageContaining("message CRC mismatch");
  }
}
