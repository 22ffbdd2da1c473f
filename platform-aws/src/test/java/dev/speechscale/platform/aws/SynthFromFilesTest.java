package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
