package dev.speechscale.server;

import java.util.Locale;

/** The {@code format} field: the audio encoding of a response. */
enum AudioFormat {
  WAV("audio/wav"),
  PCM("audio/L16"),
  MP3("audio/mpeg");

  private final String mediaType;

  AudioFormat(String mediaType) {
    this.mediaType = mediaType;
  }

  String mediaType(int sampleRateHz) {
    return this == PCM ? mediaType + ";rate=" + sampleRateHz + ";channels=1" : mediaType;
  }

  String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
