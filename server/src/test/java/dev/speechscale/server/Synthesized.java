package dev.speechscale.server;

/** What a whole synthesis produced, for tests that count audio. */
final class Synthesized {
  private Synthesized() {}

  /** Synthesizes {@code text} at speed 1.0, taking every chunk; returns the samples produced. */
  static long samples(SpeechEngine engine, String text, String voice) {
    long[] samples = {0};
    engine.synthesize(
        text,
        voice,
        1.0,
        (s, o, n) -> {
          samples[0] += n;
          return true;
        });
    return samples[0];
  }
}
