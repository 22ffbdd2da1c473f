package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/**
 * The request side of the bidirectional operation: signed envelopes unwrapped, every header type
 * decoded, broken framing refused, and PayloadParts joined into WebSocket frames.
 */
class EventStreamReaderTest {
  private static byte[] payloadPart(String body, String dataType, String state) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put(":message-type", "event");
    h.put(":event-type", "PayloadPart");
    if (dataType != null) {
      h.put("DataType", dataType);
    }
    if (state != null) {
      h.put("CompletionState", state);
    }
    return EventStream.message(h, body.getBytes(StandardCharsets.UTF_8));
  }

  /** A signed envelope as the SDK sends it: a timestamp and a byte-array header around an event. */
  private static byte[] envelope(byte[] inner) {
    ByteArrayOutputStream headers = new ByteArrayOutputStream();
    byte[] date = ":date".getBytes(StandardCharsets.US_ASCII);
    headers.write(date.length);
    headers.writeBytes(date);
    headers.write(8);
    headers.writeBytes(ByteBuffer.allocate(8).putLong(1_764_000_000_000L).array());
    byte[] sig = ":chunk-signature".getBytes(StandardCharsets.US_ASCII);
    headers.write(sig.length);
    headers.writeBytes(sig);
    headers.write(6);
    headers.writeBytes(new byte[] {0, 2, (byte) 0xab, (byte) 0xcd});
    byte[] h = headers.toByteArray();
    int total = 12 + h.length + inner.length + 4;
    ByteBuffer b = ByteBuffer.allocate(total).putInt(total).putInt(h.length);
    b.putInt(crc(b.array(), 8)).put(h).put(inner);
    return b.putInt(crc(b.array(), total - 4)).array();
  }

  private static int crc(byte[] bytes, int length) {
    CRC32 c = new CRC32();
    c.update(bytes, 0, length);
    return (int) c.getValue();
  }

  private static EventStreamReader reader(byte[]... messages) {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] m : messages) {
      all.writeBytes(m);
    }
    return new EventStreamReader(new ByteArrayInputStream(all.toByteArray()), 1 << 20);
  }

  @Test
  void next_signedEnvelopes_unwrapsEachEventAndStopsAtTheEmptyOne() throws Exception {
    EventStreamReader r =
        reader(
            envelope(payloadPart("one", "UTF8", null)),
            envelope(payloadPart("two", "BINARY", null)),
            envelope(new byte[0]),
            envelope(payloadPart("after the end", "UTF8", null)));

    assertThat(r.next()).get().satisfies(m -> assertThat(m.payload()).asString().isEqualTo("one"));
    assertThat(r.next())
        .get()
        .satisfies(m -> assertThat(m.headers()).containsEntry("DataType", "BINARY"));
    assertThat(r.next()).isEmpty();
  }

  @Test
  void decode_envelopeHeaders_timestampAndBytesAreDecoded() throws Exception {
    EventStream.Message m = EventStreamReader.decode(envelope(new byte[0]));

    assertThat(m.headers())
        .containsEntry(":date", "1764000000000")
        .containsEntry(":chunk-signature", "abcd");
  }

  @Test
  void next_corruptedMessage_isRefusedForItsCrc() {
    byte[] m = payloadPart("hello", "UTF8", null);
    m[m.length - 6] ^= 1;

    assertThatThrownBy(() -> reader(m).next())
        .isInstanceOf(EventStreamReader.MalformedException.class)
        .hasMessageContaining("message CRC mismatch");
  }

  @Test
  void next_messageOverTheBound_isRefusedBeforeItsBytesAreRead() {
    byte[] prelude = ByteBuffer.allocate(4).putInt(64 << 20).array();
    EventStreamReader r = new EventStreamReader(new ByteArrayInputStream(prelude), 1 << 20);

    assertThatThrownBy(r::next)
        .isInstanceOf(EventStreamReader.MalformedException.class)
        .hasMessageContaining("67108864 bytes is outside 16..1048576 bytes");
  }

  @Test
  void assembler_partialParts_joinIntoOneFrameOfTheirType() throws Exception {
    BidiEvents.Assembler a = new BidiEvents.Assembler(1024);

    assertThat(a.accept(EventStreamReader.decode(payloadPart("{\"te", "UTF8", "PARTIAL"))))
        .isEmpty();
    Optional<BidiEvents.Frame> frame =
        a.accept(EventStreamReader.decode(payloadPart("xt\":1}", "UTF8", "COMPLETE")));

    assertThat(frame).contains(new BidiEvents.Frame.Text("{\"text\":1}"));
  }

  @Test
  void assembler_partialsOfTwoTypes_isABadEventNamingBoth() throws Exception {
    BidiEvents.Assembler a = new BidiEvents.Assembler(1024);
    a.accept(EventStreamReader.decode(payloadPart("a", "UTF8", "PARTIAL")));

    assertThatThrownBy(() -> a.accept(EventStreamReader.decode(payloadPart("b", "BINARY", null))))
        .isInstanceOf(BidiEvents.BadEventException.class)
        .hasMessageContaining("PARTIAL UTF8 part was followed by a BINARY part");
  }
}
