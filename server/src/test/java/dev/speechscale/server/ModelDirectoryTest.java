package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model directory: Kokoro found in the published ONNX export's layout, and MANIFEST.sha256
 * checked before weights_ready, in-process and through the real entry point.
 */
class ModelDirectoryTest {

  /**
   * The stand-in model laid out as the public ONNX export: onnx/model.onnx, config.json, voices/.
   */
  private static void writePublishedLayout(Path dir) throws Exception {
    KokoroStandIn.Files_ files = KokoroStandIn.write(dir);
    Files.createDirectories(dir.resolve("onnx"));
    Files.move(files.model(), dir.resolve("onnx").resolve("model.onnx"));
  }

  private static void writeManifest(Path dir) throws Exception {
    StringBuilder manifest = new StringBuilder();
    try (var files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
        String hex =
            HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
        manifest.append(hex).append("  ").append(dir.relativize(f)).append('\n');
      }
    }
    Files.writeString(dir.resolve(ModelDirectory.MANIFEST), manifest);
  }

  @Test
  void parse_kokoroWithoutPaths_findsThePublishedLayoutInTheModelDirectory(@TempDir Path dir)
      throws Exception {
    writePublishedLayout(dir);

    ServerConfig c =
        ServerConfig.parse(
            List.of("serve"), Map.of("ENGINE", "kokoro", "MODEL_DIR", dir.toString()));

    assertThat(c.kokoroModel()).contains(dir.resolve("onnx/model.onnx"));
    assertThat(c.kokoroConfigPath()).isEqualTo(dir.resolve("config.json"));
    assertThat(c.kokoroVoices()).containsExactly(dir.resolve("voices"));
    assertThat(c.modelDir()).contains(dir);
  }

  @Test
  void parse_defaultModelDirectory_isUsedOnlyWhenItExists(@TempDir Path dir) throws Exception {
    writePublishedLayout(dir);

    ServerConfig found = ServerConfig.parse(List.of(), Map.of("ENGINE", "kokoro"), dir);
    assertThat(found.kokoroModel()).contains(dir.resolve("onnx/model.onnx"));
    assertThat(ServerConfig.parse(List.of(), Map.of(), dir.resolve("absent")).modelDir()).isEmpty();
  }

  @Test
  void parse_kokoroModelDirectoryWithoutOnnx_isRefusedNamingTheLayout(@TempDir Path dir) {
    assertThatThrownBy(() ->
            ServerConfig.parse(List.of(), Map.of("ENGINE", "kokoro", "MODEL_DIR", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("has no .onnx model")
        .hasMessageContaining("onnx/model.onnx, config.json, voices/*.bin");
  }

  @Test
  void verifyManifest_matchingFiles_countsFilesAndBytes(@TempDir Path dir) throws Exception {
    writePublishedLayout(dir);
    writeManifest(dir);

    ModelDirectory.Verified v = new ModelDirectory(dir).verifyManifest().orElseThrow();

    assertThat(v.files()).isEqualTo(4); // model, config, two voices
    assertThat(v.bytes())
        .isEqualTo(
            Files.size(dir.resolve("onnx/model.onnx"))
                + Files.size(dir.resolve("config.json"))
                + 2 * KokoroVoices.FILE_BYTES);
  }

  @Test
  void verifyManifest_changedFile_namesTheFileAndBothDigests(@TempDir Path dir) throws Exception {
    writePublishedLayout(dir);
    writeManifest(dir);
    Files.writeString(dir.resolve("config.json"), "{\"vocab\":{}}");

    assertThatThrownBy(() -> new ModelDirectory(dir).verifyManifest())
        .isInstanceOf(EngineException.class)
        .hasMessageContaining("MANIFEST.sha256: config.json has sha256 ")
        .hasMessageContaining("but the manifest says ")
        .hasMessageContaining("sync the model directory again");
  }

  @Test
  void verifyManifest_listedFileMissingOrOutside_isRefusedNamingIt(@TempDir Path dir)
      throws Exception {
    Files.writeString(dir.resolve(ModelDirectory.MANIFEST), "0".repeat(64) + "  voices/gone.bin\n");
    assertThatThrownBy(() -> new ModelDirectory(dir).verifyManifest())
        .hasMessageContaining("lists voices/gone.bin, which is missing from " + dir);

    Files.writeString(dir.resolve(ModelDirectory.MANIFEST), "0".repeat(64) + "  ../etc/passwd\n");
    assertThatThrownBy(() -> new ModelDirectory(dir).verifyManifest())
        .hasMessageContaining("lists ../etc/passwd, which is outside " + dir);

    Files.writeString(dir.resolve(ModelDirectory.MANIFEST), "not a digest line\n");
    assertThatThrownBy(() -> new ModelDirectory(dir).verifyManifest())
        .hasMessageContaining("line 1 ('not a digest line') is not '<64 hex>");
  }

  @Test
  void verifyManifest_noManifest_isEmpty(@TempDir Path dir) {
    assertThat(new ModelDirectory(dir).verifyManifest()).isEmpty();
  }

  @Test
  void serve_kokoroFromModelDirectory_verifiesTheManifestThenBecomesReady(@TempDir Path dir)
      throws Exception {
    writePublishedLayout(dir);
    writeManifest(dir);

    Started s = start(Map.of("ENGINE", "kokoro", "MODEL_DIR", dir.toString()), "=== STAGE ready ");

    assertThat(s.lines()).contains("speech-server: model directory " + dir + ": 4 files (");
    assertThat(s.lines().indexOf("4 files")).isLessThan(s.lines().indexOf("STAGE weights_ready"));
  }

  @Test
  void serve_manifestMismatch_stopsBeforeWeightsReadyNamingTheFile(@TempDir Path dir)
      throws Exception {
    writePublishedLayout(dir);
    writeManifest(dir);
    KokoroStandIn.writeVoice(dir.resolve("voices/bm_lewis.bin"), 0.25f);

    Started s = start(Map.of("ENGINE", "kokoro", "MODEL_DIR", dir.toString()), null);

    assertThat(s.exitCode()).isEqualTo(1);
    assertThat(s.lines())
        .contains("MANIFEST.sha256: voices/bm_lewis.bin has sha256 ")
        .doesNotContain("STAGE weights_ready");
  }

  private record Started(int exitCode, String lines) {}

  /**
   * Starts the entry point with {@code env}; with {@code until} reads up to that line and stops the
   * process, otherwise waits for it to exit.
   */
  private static Started start(Map<String, String> env, String until) throws Exception {
    ProcessBuilder builder = MainProcess.serve("--port", "0");
    builder.environment().putAll(env);
    Process process = builder.start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        lines.add(line);
        if (until != null && line.startsWith(until)) {
          break;
        }
      }
    } finally {
      if (until != null) {
        process.destroy();
      }
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
    return new Started(process.exitValue(), String.join("\n", lines));
  }
}
