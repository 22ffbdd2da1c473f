package dev.speechscale.server;

/** Creates the engine a configuration names. */
final class Engines {
  private Engines() {}

  static SpeechEngine create(ServerConfig config) {
    int threads =
        config.engineThreads() > 0
            ? config.engineThreads()
            : Math.max(1, Runtime.getRuntime().availableProcessors());
    return switch (config.engine()) {
      case FLITE -> new FliteEngine(threads);
      case ESPEAK -> new EspeakEngine();
      case KOKORO ->
          new KokoroEngine(
              config.kokoroModel().orElseThrow(),
              config.kokoroConfigPath(),
              config.kokoroVoices(),
              Phonemizer.espeak(),
              config.onnxProvider());
    };
  }
}
