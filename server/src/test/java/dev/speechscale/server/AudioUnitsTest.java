package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class AudioUnitsTest {

  @Test
  void streamingHeader_hasPlaceholderSizesAndPcmFormat() {
    ByteBuffer h = ByteBuffer.wrap(WavHeader.streaming(16_000)).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(h.capacity()).isEqualTo(44);
    assertThat(new String(WavHeader.streaming(16_000), 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("RIFF");
    assertThat(h.getInt(4)).isEqualTo(0xFFFFFFFF);
    assertThat(h.getShort(20)).isEqualTo((short) 1);
    assertThat(h.getShort(22)).isEqualTo((short) 1);
    assertThat(h.getInt(24)).isEqualTo(16_000);
    assertThat(h.getInt(28)).isEqualTo(32_000);
    assertThat(h.getShort(34)).isEqualTo((short) 16);
    assertThat(h.getInt(40)).isEqualTo(0xFFFFFFFF);
  }

  @Test
  void sizedHeader_carriesRealSizes() {
    ByteBuffer h = ByteBuffer.wrap(WavHeader.sized(8_000, 1000)).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(h.getInt(4)).isEqualTo(1036);
    assertThat(h.getInt(40)).isEqualTo(1000);
  }

  @Test
  void toInt16_outOfRangeFloats_clipInsteadOfWrapping() {
    float[] in = {2.5f, -3f, 1f, -1f, 0.5f, Float.NaN};
    short[] out = new short[in.length];
    Pcm.toInt16(in, 0, out, 0, in.length);
    assertThat(out).containsExactly((short) 32767, (short) -32768, (short) 32767, (short) -32767, (short) 16384, (short) 0);
  }

  @Test
  void toBytes_isLittleEndian() {
    assertThat(Pcm.toBytes(new short[] {0x1234, -2}, 0, 2)).containsExactly(0x34, 0x12, 0xFE, 0xFF);
  }

  private static short[] tone(double hz, int rate, int n) {
    short[] s = new short[n];
    for (int i = 0; i < n; i++) {
      s[i] = (short) (10_000 * Math.sin(2 * Math.PI * hz * i / rate));
    }
    return s;
  }

  private static double rms(short[] s, int from, int to) {
    double sum = 0;
    for (int i = from; i < to; i++) {
      sum += (double) s[i] * s[i];
    }
    return Math.sqrt(sum / (to - from));
  }

  private static short[] resampleInChunks(short[] in, int from, int to) {
    Resampler r = new Resampler(from, to);
    var out = new java.util.ArrayList<short[]>();
    for (int i = 0; i < in.length; i += 777) {
      out.add(r.process(in, i, Math.min(777, in.length - i)));
    }
    out.add(r.flush());
    int n = out.stream().mapToInt(a -> a.length).sum();
    short[] all = new short[n];
    int p = 0;
    for (short[] a : out) {
      System.arraycopy(a, 0, all, p, a.length);
      p += a.length;
    }
    return all;
  }

  @Test
  void resample_halfRate_keepsLengthAndInBandTone() {
    short[] out = resampleInChunks(tone(440, 16_000, 16_000), 16_000, 8_000);
    assertThat(out.length).isBetween(7_990, 8_010);
    assertThat(rms(out, 500, 7_500)).isBetween(6_500.0, 7_600.0); // 10000/sqrt(2) = 7071
  }

  @Test
  void resample_halfRate_suppressesToneAboveNewNyquist() {
    short[] out = resampleInChunks(tone(6_000, 16_000, 16_000), 16_000, 8_000);
    assertThat(rms(out, 500, 7_500)).isLessThan(300.0);
  }

  @Test
  void resample_22050to16000_keepsDurationAcrossChunks() {
    short[] out = resampleInChunks(tone(300, 22_050, 22_050), 22_050, 16_000);
    assertThat(out.length).isBetween(15_990, 16_010);
  }

  @Test
  void segmentation_paragraph_splitsOnlyOnNewlines() {
    assertThat(Segmentation.PARAGRAPH.split("One. Two!\n\nThree?  \n"))
        .containsExactly("One. Two!", "Three?");
  }

  @Test
  void segmentation_sentence_splitsAfterTerminalPunctuation() {
    assertThat(Segmentation.SENTENCE.split("One. Two! Three? Four\nFive"))
        .containsExactly("One.", "Two!", "Three?", "Four", "Five");
  }

  @Test
  void chunkBuffer_overBound_refusesWithoutBlocking() throws Exception {
    ChunkBuffer buffer = new ChunkBuffer(10);
    short[] four = new short[4];
    assertThat(buffer.offer(four, 0, 4)).isTrue();
    assertThat(buffer.offer(four, 0, 2)).isFalse();
    assertThat(buffer.take(java.time.Duration.ofSeconds(1))).isInstanceOf(ChunkBuffer.Item.Chunk.class);
    assertThat(buffer.offer(four, 0, 4)).isTrue();
  }

  @Test
  void chunkBuffer_failAfterChunks_deliversChunksFirst() throws Exception {
    ChunkBuffer buffer = new ChunkBuffer(100);
    buffer.offer(new short[] {1, 2}, 0, 2);
    buffer.fail(new IllegalStateException("boom"));
    var d = java.time.Duration.ofSeconds(1);
    assertThat(buffer.take(d)).isInstanceOf(ChunkBuffer.Item.Chunk.class);
    assertThat(buffer.take(d)).isInstanceOf(ChunkBuffer.Item.Failed.class);
  }

  @Test
  void chunkBuffer_empty_takeTimesOutAsIdle() throws Exception {
    assertThat(new ChunkBuffer(100).take(java.time.Duration.ofMillis(1))).isInstanceOf(ChunkBuffer.Item.Idle.class);
  }

  @Test
  void mp3_encodeAndFlush_producesMpegFrames() {
    assertThat(Mp3Encoder.LAME).as("libmp3lame0 must be installed (bin/test installs it)").isPresent();
    try (Mp3Encoder mp3 = new Mp3Encoder(16_000)) {
      var out = new java.io.ByteArrayOutputStream();
      short[] t = tone(440, 16_000, 16_000);
      out.writeBytes(mp3.encode(t, 0, t.length));
      out.writeBytes(mp3.flush());
      byte[] b = out.toByteArray();
      assertThat(b.length).isBetween(3_000, 12_000); // 1 s at 48 kbps = 6000 bytes
      assertThat(b[0] & 0xFF).isEqualTo(0xFF); // frame sync
      assertThat(b[1] & 0xE0).isEqualTo(0xE0);
    }
  }
}
