package dev.speechscale.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Every engine behind the SPI, loaded once for a test class: flite, espeak-ng and the kokoro
 * stand-in (written to a temporary directory that {@link #close()} deletes).
 */
final class EngineLineup implements AutoCloseable {
  private final Path kokoroDir;
  private final List<SpeechEngine> engines;

  private EngineLineup(Path kokoroDir, List<SpeechEngine> engines) {
    this.kokoroDir = kokoroDir;
    this.engines = engines;
  }

  /**
   * @param tempPrefix the prefix of the kokoro stand-in's temporary directory
   * @param fliteConcurrency how many syntheses the flite engine runs at once
   */
  static EngineLineup load(String tempPrefix, int fliteConcurrency) {
    Path dir;
    KokoroStandIn.Files_ standIn;
    try {
      dir = Files.createTempDirectory(tempPrefix);
      standIn = KokoroStandIn.write(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("writing the kokoro stand-in for " + tempPrefix, e);
    }
    return new EngineLineup(
        dir,
        List.of(
            new FliteEngine(fliteConcurrency),
            new EspeakEngine(),
            new KokoroEngine(
                standIn.model(),
                standIn.config(),
                List.of(standIn.voices()),
                Phonemizer.espeak())));
  }

  /** One argument per engine, named after it, for a {@code @MethodSource}. */
  Stream<Arguments> arguments() {
    return engines.stream().map(e -> Arguments.of(Named.of(e.name(), e)));
  }

  @Override
  public void close() throws IOException {
    engines.forEach(SpeechEngine::close);
    try (Stream<Path> files = Files.walk(kokoroDir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
