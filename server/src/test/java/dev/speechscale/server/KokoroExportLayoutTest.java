package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model directory exactly as onnx-community/Kokoro-82M-v1.0-ONNX publishes it: {@code
 * config.json} holds only {@code model_type}, the vocabulary is {@code model.vocab} of {@code
 * tokenizer.json} (with {@code $} as the pad symbol 0), the model is {@code onnx/model.onnx} beside
 * the export's other dtypes, and the voices are {@code voices/*.bin}.
 */
class KokoroExportLayoutTest {
  private static void writeExportLayout(Path dir) throws Exception {
    KokoroStandIn.Files_ files = KokoroStandIn.write(dir);
    Files.createDirectories(dir.resolve("onnx"));
    Files.move(files.model(), dir.resolve("onnx").resolve("model.onnx"));
    // the export ships several dtypes beside model.onnx; the server loads model.onnx
    Files.write(dir.resolve("onnx").resolve("model_quantized.onnx"), new byte[] {1, 2, 3});
    String vocab = KokoroStandIn.configJson().replace("{\"model\":\"stand-in\",\"vocab\":{", "{");
    vocab = vocab.substring(0, vocab.length() - 1);
    Files.writeString(
        dir.resolve("tokenizer.json"),
        "{\"version\":\"1.0\",\"model\":{\"vocab\":{\"$\":0," + vocab.substring(1) + "}}");
    Files.writeString(dir.resolve("config.json"), "{\"model_type\": \"style_text_to_speech_2\"}");
  }

  @Test
  void kokoro_exportLayout_loadsTheVocabFromTokenizerJsonAndSynthesizes(@TempDir Path dir)
      throws Exception {
    writeExportLayout(dir);
    ServerConfig c =
        ServerConfig.parse(List.of(), Map.of("ENGINE", "kokoro", "MODEL_DIR", dir.toString()));
    assertThat(c.kokoroModel()).contains(dir.resolve("onnx/model.onnx"));

    try (KokoroEngine engine =
        new KokoroEngine(
            c.kokoroModel().orElseThrow(),
            c.kokoroConfigPath(),
            c.kokoroVoices(),
            (t, l) -> "ab c",
            c.onnxProvider())) {
      long samples = Synthesized.samples(engine, "x", "af_heart");
      // four symbols (a, b, space, c) plus the two pads
      assertThat(samples).isEqualTo(6L * KokoroStandIn.SAMPLES_PER_TOKEN);
    }
  }

  @Test
  void vocab_tokenizerJsonAlone_isReadAsModelVocab(@TempDir Path dir) throws Exception {
    writeExportLayout(dir);
    Files.delete(dir.resolve("config.json"));

    ServerConfig c =
        ServerConfig.parse(List.of(), Map.of("ENGINE", "kokoro", "MODEL_DIR", dir.toString()));

    assertThat(c.kokoroConfigPath()).isEqualTo(dir.resolve("tokenizer.json"));
    assertThat(KokoroVocab.read(c.kokoroConfigPath()).encode("ab")).containsExactly(12L, 13L);
  }

  @Test
  void vocab_configWithoutVocabAndNoTokenizer_isRefusedNamingBothPlaces(@TempDir Path dir)
      throws Exception {
    Path config = dir.resolve("config.json");
    Files.writeString(config, "{\"model_type\": \"style_text_to_speech_2\"}");

    assertThatThrownBy(() -> KokoroVocab.read(config))
        .isInstanceOf(EngineException.class)
        .hasMessageContaining("no non-empty \"vocab\"")
        .hasMessageContaining("model.vocab (tokenizer.json of the ONNX export)");
  }
}
