package dev.speechscale.server;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The languages of Kokoro-82M's published voices, by the first letter of the voice name ({@code
 * bm_lewis} → British English), and the espeak-ng language each one's IPA is taken from.
 *
 * <p>The letters and the espeak languages for e, f, h, i and p are Kokoro's own ({@code LANG_CODES}
 * of its pipeline, which hands those to espeak-ng). For a and b Kokoro uses its misaki G2P with
 * espeak-ng {@code en-us} / {@code en-gb} as the fallback, and kokoro-js uses espeak-ng alone, as
 * here. For j and z Kokoro uses misaki's Japanese and Chinese G2P, which do not exist in Java;
 * espeak-ng's {@code ja} and {@code cmn} stand in, so those voices speak, but not as well as in
 * Kokoro's own front end.
 */
enum KokoroLanguage {
  AMERICAN_ENGLISH('a', "en-us"),
  BRITISH_ENGLISH('b', "en-gb"),
  SPANISH('e', "es"),
  FRENCH('f', "fr-fr"),
  HINDI('h', "hi"),
  ITALIAN('i', "it"),
  JAPANESE('j', "ja"),
  BRAZILIAN_PORTUGUESE('p', "pt-br"),
  MANDARIN('z', "cmn");

  private final char prefix;
  private final String espeakLanguage;

  KokoroLanguage(char prefix, String espeakLanguage) {
    this.prefix = prefix;
    this.espeakLanguage = espeakLanguage;
  }

  char prefix() {
    return prefix;
  }

  /** The espeak-ng language code the phonemizer is asked for. */
  String espeakLanguage() {
    return espeakLanguage;
  }

  /** The language of a Kokoro voice name, or empty when its first letter is none of Kokoro's. */
  static Optional<KokoroLanguage> of(String voice) {
    if (voice.isEmpty()) {
      return Optional.empty();
    }
    char first = voice.charAt(0);
    return Arrays.stream(values()).filter(l -> l.prefix == first).findFirst();
  }

  /** The prefixes, for messages: {@code a b e f h i j p z}. */
  static String prefixes() {
    return Arrays.stream(values())
        .map(l -> String.valueOf(l.prefix))
        .collect(Collectors.joining(" "));
  }
}
