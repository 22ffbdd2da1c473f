package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ArtifactException;
import dev.speechscale.artifacts.ScalingGate;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code speech-infra synth --platform aws} as on a fresh clone: an endpoint config file, no plan
 * yet, no AWS credentials or region anywhere — the templates are written all the same.
 */
class SynthFromFilesTest {

  @Test
  void synth_freshCloneWithoutAPlan_writesTheTemplatesOffline(@TempDir Path dir)
      throws IOException {
    Path config = dir.resolve("endpoints.yaml");
    Files.writeString(config, AwsFixtures.yaml(AwsFixtures.IMAGE, ""));
    Path out = dir.resolve("cdk.out");
    AwsDeployer deployer =
        new AwsDeployer(
            (c, e, d, o) -> {
              throw new AssertionError("synth ran a command: " + c);
            },
            Map.of(),
            dir.resolve("home"),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

    AwsDeployer.Synthesis s =
        deployer.synth(config, "kokoro-82m", dir.resolve("plan-kokoro-82m.json"), Map.of(), out);

    assertThat(out.resolve("manifest.json")).isRegularFile();
    assertThat(out.resolve("speech-foundation.template.json")).isRegularFile();
    assertThat(out.resolve("speech-model-cache-kokoro-82m.template.json")).isRegularFile();
    assertThat(out.resolve("speech-endpoint-kokoro-82m.template.json")).isRegularFile();
    assertThat(Files.readString(out.resolve("speech-endpoint-kokoro-82m.template.json")))
        .contains("\"RetainAllVariantProperties\": true")
        .doesNotContain("AWS::ApplicationAutoScaling::ScalableTarget");
    assertThat(s.decision()).isInstanceOf(ScalingGate.Decision.Withhold.class);
    assertThat(s.describeSynth())
        .contains("no plan artifact (looked for " + dir.resolve("plan-kokoro-82m.json") + ")");
  }

  /**
   * The README's Kokoro example on SageMaker: the config is the example plan's own config block
   * with the engine and the {@code aws:} settings added, and synth attaches what the plan measured.
   */
  @Test
  void synth_exampleKokoroPlanAndAConfigWrittenFromIt_attachesScaling(@TempDir Path dir)
      throws IOException {
    Path plan = Path.of("..", "examples", "kokoro-82m", "plan-kokoro-82m.json");
    String block = ArtifactCodec.readPlan(plan).configBlock();
    Path config = dir.resolve("endpoints.yaml");
    Files.writeString(
        config,
        block
            + "    engine: kokoro\n"
            + "    aws:\n"
            + "      image_uri: 123456789012.dkr.ecr.us-east-1.amazonaws.com/speech-server@sha256:"
            + AwsFixtures.DIGEST
            + "\n"
            + "      model_repository: onnx-community/Kokoro-82M-v1.0-ONNX\n"
            + "      model_revision: 1939ad2a8e416c0acfeecc08a694d14ef25f2231\n"
            + "      quota_max_instances: 280\n");
    Path out = dir.resolve("cdk.out");

    AwsDeployer.Synthesis s = offline(dir).synth(config, "kokoro-82m", plan, Map.of(), out);

    assertThat(s.decision().reason()).doesNotContain("measured against another deployment");
    assertThat(s.decision()).isInstanceOf(ScalingGate.Decision.Attach.class);
    assertThat(Files.readString(out.resolve("speech-endpoint-kokoro-82m.template.json")))
        .contains("AWS::ApplicationAutoScaling::ScalableTarget")
        .contains("\"MaxCapacity\": 280")
        .contains("TargetTrackingScaling")
        .contains("StepScaling");
  }

  private static AwsDeployer offline(Path dir) {
    return new AwsDeployer(
        (c, e, d, o) -> {
          throw new AssertionError("synth ran a command: " + c);
        },
        Map.of(),
        dir.resolve("home"),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
  }

  @Test
  void synth_unknownModel_namesTheModelsTheFileHas(@TempDir Path dir) throws IOException {
    Path config = dir.resolve("endpoints.yaml");
    Files.writeString(config, AwsFixtures.yaml(AwsFixtures.IMAGE, ""));

    assertThatThrownBy(() ->
            AwsDeployer.system(System.out)
                .synth(config, "flite", dir.resolve("plan.json"), Map.of(), dir.resolve("o")))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("has no model 'flite'; it defines kokoro-82m");
  }
}
