package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.EndpointConfigFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.assertions.Template;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The model cache stack of a Kokoro endpoint: the ONNX export at a pinned commit, only the files of
 * the layout the server loads from /opt/ml/model, a layout check, and MANIFEST.sha256; read from
 * the synthesized CloudFormation, and the build's layout check and manifest run here for real.
 */
class ModelCacheTemplateTest {
  static final String REPOSITORY = "onnx-community/Kokoro-82M-v1.0-ONNX";
  static final String REVISION = "1939ad2a8e416c0acfeecc08a694d14ef25f2231";

  private static Template synth(Path out, String engine) {
    String yaml =
        AwsFixtures.yaml(AwsFixtures.IMAGE, "")
            .replace("model_repository: hexgrad/Kokoro-82M", "model_repository: " + REPOSITORY)
            .replace("model_revision: " + AwsFixtures.REVISION, "model_revision: " + REVISION)
            .replace("engine: kokoro", "engine: " + engine);
    SpeechInfraApp app =
        Synth.withoutPlan(
            EndpointConfigFile.parse(Path.of("endpoints.yaml"), yaml).model(AwsFixtures.MODEL),
            out);
    return Template.fromStack(app.modelCache());
  }

  private static String buildSpec(Template t) {
    Map<String, Map<String, Object>> projects = t.findResources("AWS::CodeBuild::Project");
    assertThat(projects).hasSize(1);
    @SuppressWarnings("unchecked")
    Map<String, Object> props =
        (Map<String, Object>) projects.values().iterator().next().get("Properties");
    @SuppressWarnings("unchecked")
    Map<String, Object> source = (Map<String, Object>) props.get("Source");
    return flatten(source.get("BuildSpec"));
  }

  /** The build spec holds tokens (the bucket's name): its {@code Fn::Join} with them as TOKEN. */
  @SuppressWarnings("unchecked")
  private static String flatten(Object value) {
    if (value instanceof String text) {
      return text;
    }
    if (value instanceof Map<?, ?> map && map.containsKey("Fn::Join")) {
      List<Object> join = (List<Object>) map.get("Fn::Join");
      StringBuilder b = new StringBuilder();
      for (Object part : (List<Object>) join.get(1)) {
        b.append(part instanceof String text ? text : "TOKEN");
      }
      return b.toString();
    }
    throw new AssertionError("unexpected BuildSpec " + value);
  }

  @Test
  void kokoro_syncsTheOnnxExportAtThePinnedCommitOnlyItsLayoutFiles(@TempDir Path out) {
    Template cache = synth(out, "kokoro");
    JsonNode spec = JsonMapper.builder().build().readTree(buildSpec(cache));
    JsonNode variables = spec.path("env").path("variables");

    assertThat(variables.path("REPOSITORY").asString()).isEqualTo(REPOSITORY);
    assertThat(variables.path("REVISION").asString()).isEqualTo(REVISION).matches("[0-9a-f]{40}");
    assertThat(variables.path("LAYOUT").asString()).isEqualTo("kokoro-onnx");
    assertThat(variables.path("ALLOW_PATTERNS").asString())
        .isEqualTo(
            "[\"onnx/model.onnx\", \"voices/*.bin\", \"config.json\", \"tokenizer.json\","
                + " \"tokenizer_config.json\"]");
    String build = spec.path("phases").path("build").path("commands").get(0).asString();
    assertThat(build)
        .contains("revision=os.environ[\"REVISION\"]")
        .contains("allow_patterns=json.loads(os.environ[\"ALLOW_PATTERNS\"])")
        .contains(ModelCacheStack.KOKORO_LAYOUT_CHECK.lines().toList().get(1).strip())
        .contains("MANIFEST.sha256");
    cache.hasResourceProperties(
        "Custom::SpeechScaleWeights",
        Map.of(
            "Repository",
            REPOSITORY,
            "Revision",
            REVISION,
            "Layout",
            "kokoro-onnx",
            "WeightsUri",
            Synth.joinWith("/models/" + REPOSITORY + "/" + REVISION + "/")));
  }

  @Test
  void flite_syncsTheWholeRepositoryWithoutTheKokoroLayoutCheck(@TempDir Path out) {
    JsonNode variables =
        JsonMapper.builder()
            .build()
            .readTree(buildSpec(synth(out, "flite")))
            .path("env")
            .path("variables");

    assertThat(variables.path("LAYOUT").asString()).isEqualTo("any");
    assertThat(variables.path("ALLOW_PATTERNS").asString()).isEqualTo("[]");
  }

  /** The build's layout check and manifest, run by bash on a directory in the export's layout. */
  @Test
  void layoutCheckAndManifest_exportLayout_passesAndListsRelativePaths(@TempDir Path dir)
      throws Exception {
    writeExport(dir.resolve("weights"));

    Run run = bash(dir, script());

    assertThat(run.exitCode()).as(run.out()).isZero();
    List<String> manifest = Files.readAllLines(dir.resolve("MANIFEST.sha256"));
    assertThat(manifest)
        .extracting(line -> line.substring(66))
        .containsExactly("config.json", "onnx/model.onnx", "tokenizer.json", "voices/af_heart.bin");
    assertThat(manifest).allSatisfy(line -> assertThat(line).matches("[0-9a-f]{64}  \\S.*"));
  }

  @Test
  void layoutCheck_pyTorchRelease_failsNamingWhatIsMissingAndTheExport(@TempDir Path dir)
      throws Exception {
    Path weights = Files.createDirectories(dir.resolve("weights"));
    // what hexgrad/Kokoro-82M has: kokoro-v1_0.pth, voices/*.pt, config.json with the vocab
    Files.writeString(weights.resolve("config.json"), "{\"vocab\": {\"a\": 43}}");
    Files.write(weights.resolve("kokoro-v1_0.pth"), new byte[] {1});
    Files.createDirectories(weights.resolve("voices"));
    Files.write(weights.resolve("voices/af_heart.pt"), new byte[] {1});

    Run run = bash(dir, script());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .contains("lacks: onnx/model.onnx voices/*.bin;")
        .contains("onnx-community/Kokoro-82M-v1.0-ONNX");
    assertThat(dir.resolve("MANIFEST.sha256")).doesNotExist();
  }

  @Test
  void layoutCheck_noVocabulary_failsNamingIt(@TempDir Path dir) throws Exception {
    writeExport(dir.resolve("weights"));
    Files.delete(dir.resolve("weights/tokenizer.json"));

    Run run = bash(dir, script());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).contains("lacks: vocab(tokenizer.json:model.vocab|config.json:vocab)");
  }

  /** The part of the build that runs after the download: layout check, then the manifest. */
  private static String script() {
    return "set -euo pipefail\nREPOSITORY="
        + REPOSITORY
        + "\nREVISION="
        + REVISION
        + "\n"
        + ModelCacheStack.KOKORO_LAYOUT_CHECK
        + ModelCacheStack.MANIFEST_COMMAND
        + "\n";
  }

  private static void writeExport(Path weights) throws IOException {
    Files.createDirectories(weights.resolve("onnx"));
    Files.createDirectories(weights.resolve("voices"));
    Files.write(weights.resolve("onnx/model.onnx"), new byte[] {8, 1});
    Files.write(weights.resolve("voices/af_heart.bin"), new byte[510 * 256 * 4]);
    Files.writeString(
        weights.resolve("config.json"), "{\"model_type\": \"style_text_to_speech_2\"}");
    Files.writeString(
        weights.resolve("tokenizer.json"), "{\"model\": {\"vocab\": {\"$\": 0, \";\": 1}}}");
  }

  record Run(int exitCode, String out) {}

  private static Run bash(Path dir, String script) throws Exception {
    Process p =
        new ProcessBuilder("bash", "-c", script)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), out);
  }
}
