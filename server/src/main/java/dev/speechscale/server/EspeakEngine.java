package dev.speechscale.server;

import java.util.List;

/**
 * The espeak engine: espeak-ng's formant synthesizer at 22,050 Hz. Voices are espeak language codes
 * ({@code en-us} by default). Speed scales espeak's rate of 175 words per minute, clamped to
 * espeak's 80–450 range. Not reentrant: {@link #maxConcurrency()} is 1.
 */
final class EspeakEngine implements SpeechEngine {
  static final String DEFAULT_VOICE = "en-us";

  private final Espeak espeak;
  private final List<String> voices;

  EspeakEngine() {
    this.espeak = Espeak.get();
    this.voices = espeak.languages();
    if (!voices.contains(DEFAULT_VOICE)) {
      throw new EngineException(
          "espeak-ng lists no '"
              + DEFAULT_VOICE
              + "' voice; the voice data is missing: "
              + NativeLibraries.installAdvice("espeak-ng-data", System.getenv()));
    }
  }

  @Override
  public String name() {
    return "espeak";
  }

  @Override
  public int sampleRateHz() {
    return espeak.sampleRateHz();
  }

  @Override
  public List<String> voices() {
    return voices;
  }

  @Override
  public String defaultVoice() {
    return DEFAULT_VOICE;
  }

  @Override
  public void synthesize(String text, String voice, double speed, PcmSink sink) {
    int wpm =
        (int)
            Math.max(
                Espeak.RATE_MIN_WPM,
                Math.min(Espeak.RATE_MAX_WPM, Math.round(Espeak.RATE_NORMAL_WPM * speed)));
    espeak.synthesize(text, voice, wpm, sink);
  }

  @Override
  public void close() {
    // espeak-ng lives as long as the process; its one thread is a daemon
  }
}
