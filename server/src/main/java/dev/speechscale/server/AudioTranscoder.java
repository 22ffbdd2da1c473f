package dev.speechscale.server;

import java.io.ByteArrayOutputStream;
import org.jspecify.annotations.Nullable;

/**
 * Turns engine PCM chunks into the response's bytes: optional downsampling, then 16-bit LE PCM (for
 * wav and pcm) or MP3 frames. One per response.
 */
final class AudioTranscoder implements AutoCloseable {
  /** Null when the engine's rate is the output rate. */
  private final @Nullable Resampler resampler;

  /** Null unless the format is MP3 (wav and pcm are plain 16-bit samples). */
  private final @Nullable Mp3Encoder mp3;

  private long outputSamples;

  AudioTranscoder(AudioFormat format, int engineRateHz, int outputRateHz) {
    this.resampler =
        outputRateHz == engineRateHz ? null : new Resampler(engineRateHz, outputRateHz);
    this.mp3 = format == AudioFormat.MP3 ? new Mp3Encoder(outputRateHz) : null;
  }

  byte[] encode(short[] chunk) {
    short[] pcm = resampler == null ? chunk : resampler.process(chunk, 0, chunk.length);
    return emit(pcm);
  }

  /** The tail: resampler and encoder leftovers. Call once at the normal end. */
  byte[] finish() {
    ByteArrayOutputStream tail = new ByteArrayOutputStream();
    if (resampler != null) {
      tail.writeBytes(emit(resampler.flush()));
    }
    if (mp3 != null) {
      tail.writeBytes(mp3.flush());
    }
    return tail.toByteArray();
  }

  private byte[] emit(short[] pcm) {
    outputSamples += pcm.length;
    return mp3 != null ? mp3.encode(pcm, 0, pcm.length) : Pcm.toBytes(pcm, 0, pcm.length);
  }

  /** Samples emitted at the output rate so far. */
  long outputSamples() {
    return outputSamples;
  }

  @Override
  public void close() {
    if (mp3 != null) {
      mp3.close();
    }
  }
}
