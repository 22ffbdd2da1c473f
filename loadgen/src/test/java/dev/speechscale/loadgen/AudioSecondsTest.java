package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Seconds of audio from the bytes received and the byte rate the format declares. */
class AudioSecondsTest {

  @Test
  void of_wavInPieces_bytesOverTheFmtChunksByteRate() {
    // the fake server's header: 24 kHz mono 16-bit, 48000 bytes per second
    AudioMeter m = new AudioMeter(true);
    byte[] header = FakeTtsServer.wavHeader();
    m.accept(header, 0, 30, 1); // the fmt chunk's byte rate arrives in the second piece
    m.accept(header, 30, 14, 2);
    m.accept(new byte[24_000], 0, 24_000, 3);

    assertThat(m.wavByteRate()).isEqualTo(48_000);
    assertThat(AudioSeconds.of("audio/wav", m)).isCloseTo(0.5, within(1e-12));
  }

  @Test
  void of_wavWithAChunkBeforeFmtAndData_stillFindsTheByteRate() {
    byte[] body = FakeTtsServer.wavWithListChunk(12, 9600);
    AudioMeter m = new AudioMeter(true);

    m.accept(body, 0, body.length, 1);

    assertThat(AudioSeconds.of("audio/wav", m)).isCloseTo(0.2, within(1e-12));
  }

  @Test
  void of_rawPcm_twoBytesPerSamplePerChannelAtTheDeclaredRate() {
    AudioMeter m = new AudioMeter(false);
    m.accept(new byte[64_000], 0, 64_000, 1);

    assertThat(AudioSeconds.of("audio/L16;rate=16000;channels=1", m)).isCloseTo(2.0, within(1e-12));
    assertThat(AudioSeconds.of("audio/L16;rate=16000;channels=2", m)).isCloseTo(1.0, within(1e-12));
    assertThat(AudioSeconds.of("audio/L16", m)).as("no rate: unknown").isEqualTo(-1);
  }

  @Test
  void of_mp3_theFirstFramesBitRate() {
    AudioMeter m = new AudioMeter(false);
    // MPEG-2 Layer III, bit rate index 6 = 48 kbit/s (the container's stream): 6000 B/s
    byte[] body = new byte[12_000];
    body[0] = (byte) 0xFF;
    body[1] = (byte) 0xF3;
    body[2] = (byte) 0x64;
    m.accept(body, 0, 2, 1);
    m.accept(body, 2, body.length - 2, 2);

    assertThat(AudioSeconds.of("audio/mpeg", m)).isCloseTo(2.0, within(1e-12));
  }

  @Test
  void mp3BytesPerSecond_mpeg1At128k_16000AndNotAFrame_unknown() {
    assertThat(AudioSeconds.mp3BytesPerSecond(new byte[] {(byte) 0xFF, (byte) 0xFB, (byte) 0x90}))
        .isEqualTo(16_000);
    assertThat(AudioSeconds.mp3BytesPerSecond("ID3".getBytes(StandardCharsets.US_ASCII)))
        .isEqualTo(-1);
  }

  @Test
  void of_unknownType_unknown() {
    AudioMeter m = new AudioMeter(false);
    m.accept(new byte[10], 0, 10, 1);

    assertThat(AudioSeconds.of("application/octet-stream", m)).isEqualTo(-1);
    assertThat(AudioSeconds.of(null, m)).isEqualTo(-1);
  }
}
