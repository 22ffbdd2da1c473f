package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.artifacts.ArtifactException;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.platform.PlatformException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AwsEndpointSpecTest {

  @Test
  void of_pinnedEcrImage_readsRepositoryAndDigest() {
    AwsEndpointSpec spec = AwsEndpointSpec.of(AwsFixtures.config());

    assertThat(spec.ecrAccount()).isEqualTo("123456789012");
    assertThat(spec.ecrRegion()).isEqualTo("us-east-1");
    assertThat(spec.ecrRepository()).isEqualTo("speech-server");
    assertThat(spec.imageDigest()).isEqualTo(AwsFixtures.DIGEST);
    assertThat(spec.resourceId()).isEqualTo("endpoint/speech-kokoro-82m/variant/AllTraffic");
    assertThat(spec.weightsPrefix())
        .isEqualTo("models/hexgrad/Kokoro-82M/" + AwsFixtures.REVISION + "/");
  }

  @Test
  void deployedConfig_excludesThePlatformsVariables() {
    AwsEndpointSpec spec = AwsEndpointSpec.of(AwsFixtures.config());

    assertThat(spec.containerEnvironment()).containsEntry("MAX_QUEUE_DEPTH", "50");
    assertThat(spec.deployedConfig()).isEqualTo(AwsFixtures.deployed());
    assertThat(spec.deployedConfig().slug()).isEqualTo("g5xlarge-8b1b96bc");
  }

  @Test
  void containerEnvironment_forwardsTheEngineAndItsSettingsAsVariables() {
    AwsEndpointSpec spec =
        AwsEndpointSpec.of(
            AwsFixtures.config(
                AwsFixtures.IMAGE,
                "    engine_settings:\n"
                    + "      kokoro_model: /opt/ml/model/onnx/model.onnx\n"
                    + "      kokoro_voices: /opt/ml/model/voices\n"
                    + "      segmentation: sentence\n"));

    assertThat(spec.containerEnvironment())
        .containsEntry("ENGINE", "kokoro")
        .containsEntry("KOKORO_MODEL", "/opt/ml/model/onnx/model.onnx")
        .containsEntry("KOKORO_VOICES", "/opt/ml/model/voices")
        .containsEntry("SEGMENTATION", "sentence")
        .containsEntry("WARMUP_TEXT", "Hello there.")
        .containsEntry("MAX_QUEUE_DEPTH", "50");
    assertThat(spec.deployedConfig().containerEnv()).containsEntry("ENGINE", "kokoro");
  }

  @Test
  void of_unknownEngineSetting_isRefusedListingTheKnownOnes() {
    assertThatThrownBy(() ->
            AwsEndpointSpec.of(
                AwsFixtures.config(AwsFixtures.IMAGE, "    engine_settings: {voice: af}\n")))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining(
            "models.kokoro-82m.engine_settings.voice is not a speech-server setting; known:"
                + " drain_timeout_s");
  }

  @Test
  void of_maxAboveTheStatedQuota_namesBothAndTheFix() {
    EndpointConfig c = AwsFixtures.config();
    EndpointConfig.Aws aws =
        new EndpointConfig.Aws(
            c.aws().imageUri(),
            c.aws().modelRepository(),
            c.aws().modelRevision(),
            3,
            "AllTraffic");
    EndpointConfig overQuota = with(c, aws, c.instanceType());

    assertThatThrownBy(() -> AwsEndpointSpec.of(overQuota))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining(
            "models.kokoro-82m.max_instances (4) exceeds aws.quota_max_instances (3); request a"
                + " quota increase or lower max_instances");
  }

  @Test
  void configFile_maxAboveTheStatedQuota_isRefusedBeforeSynthesis() {
    assertThatThrownBy(() ->
            dev.speechscale.artifacts.EndpointConfigFile.parse(
                java.nio.file.Path.of("e.yaml"),
                AwsFixtures.yaml(AwsFixtures.IMAGE, "")
                    .replace("max_instances: 4", "max_instances: 9")))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("max_instances (9) exceeds aws.quota_max_instances (6)");
  }

  @Test
  void of_missingSettings_listsEveryProblemAtOnce() {
    EndpointConfig c = AwsFixtures.config();
    EndpointConfig bare =
        with(
            c,
            new EndpointConfig.Aws("docker.io/library/speech:1", null, null, null, null),
            "local.1cpu");

    assertThatThrownBy(() -> AwsEndpointSpec.of(bare))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("(5 problems)")
        .hasMessageContaining("instance_type ('local.1cpu') is not a SageMaker type")
        .hasMessageContaining("aws.image_uri ('docker.io/library/speech:1') must be an ECR image")
        .hasMessageContaining("aws.model_repository ('null') must name a Hugging Face repository")
        .hasMessageContaining("aws.model_revision is missing")
        .hasMessageContaining("aws.quota_max_instances is missing");
  }

  @Test
  void of_noAwsSection_saysWhatToAdd() {
    EndpointConfig c = AwsFixtures.config();

    assertThatThrownBy(() -> AwsEndpointSpec.of(with(c, null, c.instanceType())))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("models.kokoro-82m.aws is missing; add image_uri");
  }

  private static EndpointConfig with(EndpointConfig c, EndpointConfig.Aws aws, String type) {
    return new EndpointConfig(
        c.modelName(),
        c.engine(),
        c.engineSettings(),
        type,
        c.minInstances(),
        c.maxInstances(),
        c.scalingTargetValue(),
        c.scaleInThreshold(),
        c.scaleOutCooldownS(),
        c.scaleInCooldownS(),
        null,
        c.ttfabSloMs(),
        c.queueMaxDepth(),
        Map.copyOf(c.containerEnv()),
        c.local(),
        aws,
        null,
        null);
  }
}
