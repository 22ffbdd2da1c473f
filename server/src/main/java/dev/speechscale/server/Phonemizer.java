package dev.speechscale.server;

/** Turns text into IPA for engines that read phonemes (Kokoro). */
@FunctionalInterface
interface Phonemizer {
  String toIpa(String text, String language);

  /** espeak-ng's IPA output, as Kokoro's own front end falls back to. */
  static Phonemizer espeak() {
    return (text, language) -> Espeak.get().toIpa(text, language);
  }
}
