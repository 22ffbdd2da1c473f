package dev.speechscale.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The measurement behind {@link ServerConfig#DEFAULT_AUDIO_S_PER_CHAR}: how much audio per
 * character each native engine produces for the hostile-text corpus ({@link
 * HostileTextFuzzTest#hostileTexts()}) and for ordinary hard text (digit runs, grouped numbers,
 * currency and dates, abbreviations, Roman numerals, initialisms), at speed 1.0. A main class, not
 * a test: flite needs several CPU minutes for the 4096-character words. Each call is bounded at 1.5
 * s of audio per character.
 *
 * <pre>
 * java -cp 'server/target/test-classes:server/target/launch/speech-server.jar:server/target/launch/lib/*' \
 *   dev.speechscale.server.AudioPerCharacterProbe flite espeak
 * </pre>
 */
public final class AudioPerCharacterProbe {
  private AudioPerCharacterProbe() {}

  static List<String> texts() {
    List<String> texts = new ArrayList<>(HostileTextFuzzTest.hostileTexts());
    texts.add("1234567890".repeat(30));
    texts.add("1,234,567 ".repeat(40));
    texts.add("The quick brown fox jumps over the lazy dog. ".repeat(20));
    texts.add("$1,000,000.99 on 12/31/2026 at 11:59pm, 3.14159% & 2^64. ".repeat(6));
    texts.add("Dr. St. Mr. Mrs. Ltd. Inc. etc. e.g. i.e. ".repeat(10));
    texts.add("MCMXCIX XLII CDXLIV ".repeat(10));
    texts.add("I.B.M. N.A.S.A. U.S.A. ".repeat(10));
    return texts;
  }

  public static void main(String[] args) {
    for (String name : args) {
      SpeechEngine engine =
          switch (name) {
            case "flite" -> new FliteEngine(1);
            case "espeak" -> new EspeakEngine();
            default -> throw new IllegalArgumentException("engine " + name + ": flite or espeak");
          };
      double worst = 0;
      String worstHead = "";
      for (String text : texts()) {
        int chars = text.codePointCount(0, text.length());
        long cap = (long) (engine.sampleRateHz() * 1.5 * Math.max(10, chars));
        long[] samples = {0};
        long started = System.nanoTime();
        String outcome = "audio";
        try {
          engine.synthesize(
              text,
              engine.defaultVoice(),
              1.0,
              (s, o, l) -> {
                samples[0] += l;
                return samples[0] <= cap;
              });
        } catch (EngineException e) {
          outcome = "refused: " + e.getMessage();
        }
        double audioS = samples[0] / (double) engine.sampleRateHz();
        double perChar = audioS / chars;
        String head = text.substring(0, Math.min(20, text.length())).replaceAll("\\p{Cntrl}", "?");
        if (perChar > worst) {
          worst = perChar;
          worstHead = chars + " chars '" + head + "'";
        }
        System.out.printf(
            Locale.ROOT,
            "%s chars=%d audio_s=%.1f s_per_char=%.3f cpu_s=%.1f %s head=%s%n",
            name,
            chars,
            audioS,
            perChar,
            (System.nanoTime() - started) / 1e9,
            outcome,
            head);
      }
      System.out.printf(
          Locale.ROOT,
          "%s worst s_per_char=%.3f (%s) x2 for speed 0.5 = %.3f; default %.2f%n",
          name,
          worst,
          worstHead,
          2 * worst,
          ServerConfig.DEFAULT_AUDIO_S_PER_CHAR);
      engine.close();
    }
  }
}
