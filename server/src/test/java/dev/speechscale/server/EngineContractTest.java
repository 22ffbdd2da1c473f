package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The one contract every engine behind the SPI must meet. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EngineContractTest {
  static final String SHORT = "The quick brown fox jumps over the lazy dog.";
  static final String LONG = SHORT + " " + SHORT + " " + SHORT;

  /** Loaded once (one instance per class), closed after the last test. */
  @AutoClose private final EngineLineup lineup = EngineLineup.load("kokoro-contract", 2);

  Stream<org.junit.jupiter.params.provider.Arguments> engines() {
    return lineup.arguments();
  }

  private static short[] synthesize(SpeechEngine engine, String text, double speed) {
    var out = new java.io.ByteArrayOutputStream();
    engine.synthesize(
        text,
        engine.defaultVoice(),
        speed,
        (s, o, l) -> {
          out.writeBytes(Pcm.toBytes(s, o, l));
          return true;
        });
    byte[] b = out.toByteArray();
    short[] samples = new short[b.length / 2];
    java.nio.ByteBuffer.wrap(b)
        .order(java.nio.ByteOrder.LITTLE_ENDIAN)
        .asShortBuffer()
        .get(samples);
    return samples;
  }

  private static double rms(short[] s) {
    double sum = 0;
    for (short v : s) {
      sum += (double) v * v;
    }
    return s.length == 0 ? 0 : Math.sqrt(sum / s.length);
  }

  @ParameterizedTest(name = "{0}", autoCloseArguments = false)
  @MethodSource("engines")
  void describe_anyEngine_namesRateVoicesAndConcurrency(SpeechEngine engine) {
    assertThat(engine.name()).isNotBlank();
    assertThat(engine.sampleRateHz()).isBetween(8_000, 48_000);
    assertThat(engine.voices()).contains(engine.defaultVoice());
    assertThat(engine.maxConcurrency()).isPositive();
  }

  @ParameterizedTest(name = "{0}", autoCloseArguments = false)
  @MethodSource("engines")
  void synthesize_sentence_producesNonSilentAudioOfPlausibleLength(SpeechEngine engine) {
    short[] audio = synthesize(engine, SHORT, 1.0);
    double seconds = audio.length / (double) engine.sampleRateHz();
    assertThat(seconds)
        .as("seconds of audio for %d characters", SHORT.length())
        .isBetween(0.3, 10.0);
    assertThat(rms(audio)).as("RMS amplitude (int16)").isGreaterThan(300);
  }

  @ParameterizedTest(name = "{0}", autoCloseArguments = false)
  @MethodSource("engines")
  void synthesize_threeTimesTheText_producesAboutThreeTimesTheAudio(SpeechEngine engine) {
    double ratio =
        synthesize(engine, LONG, 1.0).length / (double) synthesize(engine, SHORT, 1.0).length;
    assertThat(ratio).isBetween(2.2, 3.8);
  }

  @ParameterizedTest(name = "{0}", autoCloseArguments = false)
  @MethodSource("engines")
  void synthesize_doubleSpeed_producesShorterAudio(SpeechEngine engine) {
    int normal = synthesize(engine, LONG, 1.0).length;
    int fast = synthesize(engine, LONG, 2.0).length;
    assertThat((double) fast / normal).isBetween(0.3, 0.8);
  }

  @ParameterizedTest(name = "{0}", autoCloseArguments = false)
  @MethodSource("engines")
  void synthesize_sinkReturnsFalse_stopsAtThatChunkBoundary(SpeechEngine engine) {
    AtomicInteger calls = new AtomicInteger();
    engine.synthesize(
        LONG + " " + LONG, engine.defaultVoice(), 1.0, (s, o, l) -> calls.incrementAndGet() < 2);
    assertThat(calls.get()).isEqualTo(2);
  }

  @ParameterizedTest(name = "{0}", autoCloseArguments = false)
  @MethodSource("engines")
  void synthesize_concurrentCallsUpToMaxConcurrency_allSucceed(SpeechEngine engine)
      throws Exception {
    int n = Math.max(2, engine.maxConcurrency());
    try (var pool = java.util.concurrent.Executors.newFixedThreadPool(n)) {
      List<java.util.concurrent.Future<Integer>> results =
          java.util.stream.IntStream.range(0, n)
              .mapToObj(i -> pool.submit(() -> synthesize(engine, SHORT, 1.0).length))
              .toList();
      for (var r : results) {
        assertThat(r.get(60, java.util.concurrent.TimeUnit.SECONDS)).isPositive();
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
