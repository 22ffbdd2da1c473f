package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every voice Kokoro publishes, and every language espeak-ng lists, speaks through the real
 * espeak-ng 1.51 library (no stub): the voices are those kokoro-js ships (a list in this test's
 * resources), written as stand-in style tables beside the stand-in model.
 */
class EveryVoiceSpeaksTest {

  static List<String> kokoroJsVoices() throws IOException {
    try (InputStream in = EveryVoiceSpeaksTest.class.getResourceAsStream("kokoro-js-voices.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .filter(l -> !l.isBlank() && !l.startsWith("#"))
          .toList();
    }
  }

  @Test
  void toIpa_everyLanguageEspeakLists_phonemizes() {
    Espeak espeak = Espeak.get();
    List<String> failed = new ArrayList<>();
    for (String language : espeak.languages()) {
      try {
        if (espeak.toIpa("hello", language).isBlank()) {
          failed.add(language + ": empty");
        }
      } catch (EngineException e) {
        failed.add(language + ": " + e.getMessage());
      }
    }
    assertThat(espeak.languages()).contains("en-gb", "en-us", "es", "fr-fr", "pt-br", "cmn");
    assertThat(failed).isEmpty();
  }

  @Test
  void toIpa_britishEnglish_isBritishNotAmerican() {
    Espeak espeak = Espeak.get();

    assertThat(espeak.voiceFor("en-gb")).contains("gmw/en");
    assertThat(espeak.toIpa("hello", "en-gb")).isEqualTo("həlˈəʊ");
    assertThat(espeak.toIpa("hello", "en-us")).isEqualTo("həlˈoʊ");
  }

  @Test
  void toIpa_wordReadInAnotherLanguage_carriesNoLanguageSwitchFlags() {
    String ipa = Espeak.get().toIpa("こんにちは hello", "ja");

    assertThat(ipa).startsWith("kˌo̞nnitɕˈihä").doesNotContain("(en)").doesNotContain("(ja)");
  }

  @Test
  void toIpa_languageNoVoiceLists_namesItAndTheInstalledOnes() {
    assertThatThrownBy(() -> Espeak.get().toIpa("hello", "tlh"))
        .isInstanceOf(EngineException.class)
        .hasMessageContaining("no voice for language 'tlh'")
        .hasMessageContaining("en-gb");
  }

  @Test
  void synthesize_espeakEngineVoiceEnGb_producesAudio() {
    EspeakEngine engine = new EspeakEngine();
    AtomicInteger samples = new AtomicInteger();

    engine.synthesize(
        "hello there",
        "en-gb",
        1.0,
        (pcm, offset, length) -> {
          samples.addAndGet(length);
          return true;
        });

    assertThat(engine.voices()).contains("en-gb");
    assertThat(samples.get()).isGreaterThan(engine.sampleRateHz() / 10);
  }

  @Test
  void synthesize_everyKokoroJsVoiceWithTheRealPhonemizer_producesAudio(@TempDir Path dir)
      throws IOException {
    List<String> names = kokoroJsVoices();
    KokoroStandIn.Files_ files = KokoroStandIn.write(dir);
    for (String name : names) {
      KokoroStandIn.writeVoice(files.voices().resolve(name + ".bin"), 0.5f);
    }
    Map<Character, String> ipaByPrefix = new TreeMap<>();
    List<String> silent = new ArrayList<>();
    try (KokoroEngine engine =
        new KokoroEngine(
            files.model(), files.config(), List.of(files.voices()), Phonemizer.espeak())) {
      for (String name : names) {
        AtomicInteger samples = new AtomicInteger();
        engine.synthesize(
            "hello",
            name,
            1.0,
            (pcm, offset, length) -> {
              samples.addAndGet(length);
              return true;
            });
        if (samples.get() == 0) {
          silent.add(name);
        }
        KokoroLanguage language = engine.language(name);
        ipaByPrefix.put(language.prefix(), Espeak.get().toIpa("hello", language.espeakLanguage()));
      }
      assertThat(engine.voices()).containsAll(names);
    }

    assertThat(names).hasSize(54);
    assertThat(silent).isEmpty();
    assertThat(ipaByPrefix)
        .containsEntry('a', "həlˈoʊ")
        .containsEntry('b', "həlˈəʊ")
        .containsKeys('e', 'f', 'h', 'i', 'j', 'p', 'z');
  }

  @Test
  void kokoroEngine_voiceWithAnUnknownPrefix_isRefusedAtStartUpNamingIt(@TempDir Path dir)
      throws IOException {
    KokoroStandIn.Files_ files = KokoroStandIn.write(dir);
    KokoroStandIn.writeVoice(files.voices().resolve("xm_nobody.bin"), 0.5f);

    assertThatThrownBy(() ->
            new KokoroEngine(
                files.model(), files.config(), List.of(files.voices()), Phonemizer.espeak()))
        .isInstanceOf(EngineException.class)
        .hasMessageContaining("kokoro voice 'xm_nobody' starts with 'x'")
        .hasMessageContaining("a b e f h i j p z")
        .hasMessageContaining("xm_nobody.bin");
  }

  @Test
  void kokoroEngine_languageThePhonemizerCannotSpeak_isRefusedAtStartUpNamingTheVoices(
      @TempDir Path dir) throws IOException {
    KokoroStandIn.Files_ files = KokoroStandIn.write(dir);
    KokoroStandIn.writeVoice(files.voices().resolve("jf_alpha.bin"), 0.5f);
    Files.delete(files.voices().resolve("bm_lewis.bin"));
    Phonemizer noJapanese =
        (text, language) -> {
          if (language.equals("ja")) {
            throw new EngineException("espeak-ng lists no voice for language 'ja'");
          }
          return Espeak.get().toIpa(text, language);
        };

    assertThatThrownBy(() ->
            new KokoroEngine(files.model(), files.config(), List.of(files.voices()), noJapanese))
        .isInstanceOf(EngineException.class)
        .hasMessageContaining("kokoro voices [jf_alpha] need espeak-ng language 'ja'")
        .hasMessageContaining("remove those voice files");
  }

  @Test
  void invocations_espeakVoiceEnGb_is200AndAnUnlistedVoiceIs400NamingIt() throws Exception {
    try (TestServer server = TestServer.start(new EspeakEngine())) {
      var british = server.post("{\"text\":\"hi\",\"voice\":\"en-gb\",\"stream\":false}");
      var unlisted = server.post("{\"text\":\"hi\",\"voice\":\"en-xx\",\"stream\":false}");

      assertThat(british.statusCode()).isEqualTo(200);
      assertThat(british.body().length).isGreaterThan(44);
      assertThat(unlisted.statusCode()).isEqualTo(400);
      assertThat(new String(unlisted.body(), StandardCharsets.UTF_8))
          .contains("en-xx", "is not a voice of this engine", "\"field\":\"voice\"");
    }
  }

  @Test
  void invocations_kokoroBritishVoice_is200(@TempDir Path dir) throws Exception {
    KokoroStandIn.Files_ files = KokoroStandIn.write(dir);
    try (TestServer server =
        TestServer.start(
            new KokoroEngine(
                files.model(), files.config(), List.of(files.voices()), Phonemizer.espeak()))) {
      var reply = server.post("{\"text\":\"hi\",\"voice\":\"bm_lewis\",\"stream\":false}");

      assertThat(reply.statusCode()).isEqualTo(200);
      assertThat(reply.body().length).isGreaterThan(44);
    }
  }
}
