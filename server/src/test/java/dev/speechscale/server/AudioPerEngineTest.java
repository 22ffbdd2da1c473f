package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The audio is real: every engine's WAV, streamed and buffered over HTTP, decodes with sox. */
class AudioPerEngineTest {
  @TempDir static Path tmp;

  static Stream<Arguments> engines() throws Exception {
    var kokoro = KokoroStandIn.write(java.nio.file.Files.createDirectories(tmp.resolve("kokoro")));
    Supplier<SpeechEngine> flite = () -> new FliteEngine(2);
    Supplier<SpeechEngine> espeak = EspeakEngine::new;
    Supplier<SpeechEngine> kokoroEngine =
        () ->
            new KokoroEngine(
                kokoro.model(), kokoro.config(), List.of(kokoro.voices()), Phonemizer.espeak());
    return Stream.of(
        Arguments.of(Named.of("flite", flite), 16_000),
        Arguments.of(Named.of("espeak", espeak), 22_050),
        Arguments.of(Named.of("kokoro", kokoroEngine), 24_000));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("engines")
  void wav_streamedAndBuffered_decodesWithSoxAtEngineRateAndScalesWithText(
      Supplier<SpeechEngine> engine, int rateHz) throws Exception {
    String sentence = "Speech servers should stream audio as soon as they can.";
    try (TestServer s = TestServer.start(engine.get())) {
      HttpResponse<byte[]> streamed = s.post("{\"text\":\"" + sentence + "\"}");
      HttpResponse<byte[]> buffered =
          s.post("{\"text\":\"" + (sentence + " ").repeat(3).strip() + "\",\"stream\":false}");
      assertThat(streamed.statusCode()).isEqualTo(200);
      assertThat(buffered.statusCode()).isEqualTo(200);
      Sox.Info one = Sox.decode(streamed.body(), tmp);
      Sox.Info three = Sox.decode(buffered.body(), tmp);
      assertThat(one.sampleRateHz()).isEqualTo(rateHz);
      assertThat(three.sampleRateHz()).isEqualTo(rateHz);
      assertThat(one.seconds()).isBetween(0.5, 10.0);
      assertThat(three.seconds() / one.seconds()).isBetween(2.2, 3.8);
      assertThat(one.rmsAmplitude()).isGreaterThan(0.01);
      assertThat(three.rmsAmplitude()).isGreaterThan(0.01);
    }
  }
}
