package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AudioMeterTest {
  @Test
  void accept_headerGluedToFirstChunk_countsFromTheDataPayload() {
    AudioMeter m = new AudioMeter(true);
    byte[] first = new byte[44 + 100];
    System.arraycopy(FakeTtsServer.wavHeader(), 0, first, 0, 44);

    m.accept(first, 0, first.length, 7);

    assertThat(m.audioBytes()).isEqualTo(100);
    assertThat(m.firstAudioNanos()).isEqualTo(7);
    assertThat(m.problem()).isNull();
  }

  @Test
  void accept_headerAloneThenAudio_timesTheLaterRead() {
    AudioMeter m = new AudioMeter(true);
    byte[] header = FakeTtsServer.wavHeader();

    m.accept(header, 0, 20, 1);
    m.accept(header, 20, 24, 2);
    m.accept(new byte[10], 0, 10, 3);

    assertThat(m.firstAudioNanos()).isEqualTo(3);
    assertThat(m.audioBytes()).isEqualTo(10);
  }

  @Test
  void accept_extraChunkBeforeData_isSkipped() {
    byte[] body = FakeTtsServer.wavWithListChunk(36, 5);
    AudioMeter m = new AudioMeter(true);

    m.accept(body, 0, body.length, 1);

    assertThat(m.audioBytes()).isEqualTo(5);
  }

  @Test
  void accept_wavDeclaredButNoRiff_isAllAudio() {
    AudioMeter m = new AudioMeter(true);
    m.accept(new byte[] {1, 2, 3, 4, 5}, 0, 5, 1);

    assertThat(m.audioBytes()).isEqualTo(5);
  }

  @Test
  void accept_notWav_everyByteIsAudio() {
    AudioMeter m = new AudioMeter(false);
    m.accept("RIFF".getBytes(StandardCharsets.US_ASCII), 0, 4, 9);

    assertThat(m.audioBytes()).isEqualTo(4);
    assertThat(m.firstAudioNanos()).isEqualTo(9);
  }

  @Test
  void problem_bodyEndsInsideTheHeader_named() {
    AudioMeter m = new AudioMeter(true);
    m.accept(FakeTtsServer.wavHeader(), 0, 40, 1);

    assertThat(m.audioBytes()).isZero();
    assertThat(m.firstAudioNanos()).isEqualTo(-1);
    assertThat(m.problem()).contains("inside its WAV header");
  }
}
