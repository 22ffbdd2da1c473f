package dev.speechscale.platform.aws;

import dev.speechscale.platform.NanoClock;

/**
 * Counts a streamed WAV response's audio: the first {@value #WAV_HEADER_BYTES} bytes are the header
 * (which the container sends glued to the first PCM chunk, or alone), so the first audio byte — the
 * TTFAB instant — is byte 45, whichever payload part carries it. Parts arrive in order on one
 * thread at a time; the fields are volatile so the caller reads them after completion.
 */
final class WavAudioMeter {
  /** The canonical PCM WAV header the container sends first. */
  static final int WAV_HEADER_BYTES = 44;

  private final NanoClock clock;
  private volatile long receivedBytes;
  private volatile long firstAudioNanos = -1;

  WavAudioMeter(NanoClock clock) {
    this.clock = clock;
  }

  /** One payload part of {@code length} bytes has arrived. */
  void accept(int length) {
    long total = receivedBytes + length;
    if (firstAudioNanos < 0 && total > WAV_HEADER_BYTES) {
      firstAudioNanos = clock.nanoTime();
    }
    receivedBytes = total;
  }

  /** When the first audio byte arrived, or -1. */
  long firstAudioNanos() {
    return firstAudioNanos;
  }

  /** Audio bytes received, header excluded. */
  long audioBytes() {
    return Math.max(0, receivedBytes - WAV_HEADER_BYTES);
  }
}
