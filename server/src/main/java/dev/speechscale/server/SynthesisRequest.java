package dev.speechscale.server;

import java.util.OptionalDouble;

/**
 * A validated synthesis request, from {@code POST /invocations} or a WebSocket message.
 *
 * @param requestTimestampEpochS the client's send time (epoch seconds), used for staleness
 */
record SynthesisRequest(
    String text,
    String voice,
    double speed,
    boolean stream,
    AudioFormat format,
    int sampleRateHz,
    OptionalDouble requestTimestampEpochS,
    String requestId) {

  static final double MIN_SPEED = 0.5;
  static final double MAX_SPEED = 2.0;

  SynthesisRequest {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("text must not be blank");
    }
    if (!(speed >= MIN_SPEED && speed <= MAX_SPEED)) {
      throw new IllegalArgumentException("speed (" + speed + ") out of range");
    }
    if (voice == null || format == null || requestTimestampEpochS == null || requestId == null) {
      throw new IllegalArgumentException("voice, format, timestamp and id must not be null");
    }
  }

  /** Characters of text, counted in code points (what the text cap counts). */
  int characters() {
    return text.codePointCount(0, text.length());
  }
}
