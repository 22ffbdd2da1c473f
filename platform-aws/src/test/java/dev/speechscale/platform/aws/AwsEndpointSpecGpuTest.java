package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.PlatformException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/** The GPU image on GPU instance types: chosen by the spec, deployed by the endpoint stack. */
class AwsEndpointSpecGpuTest {
  private static final String GPU_DIGEST = "a".repeat(64);
  private static final String GPU_IMAGE =
      "123456789012.dkr.ecr.us-east-1.amazonaws.com/speech-server-gpu@sha256:" + GPU_DIGEST;

  private static String withType(String type, String gpuImage) {
    return AwsFixtures.yaml(
            AwsFixtures.IMAGE, gpuImage == null ? "" : "      gpu_image_uri: " + gpuImage + "\n")
        .replace("instance_type: ml.g5.xlarge", "instance_type: " + type);
  }

  private static AwsEndpointSpec spec(String type, String gpuImage) {
    return AwsEndpointSpec.of(
        dev.speechscale.artifacts.EndpointConfigFile.parse(
                Path.of("endpoints.yaml"), withType(type, gpuImage))
            .model(AwsFixtures.MODEL));
  }

  @ParameterizedTest
  @CsvSource({
    "ml.g5.xlarge, true",
    "ml.g4dn.2xlarge, true",
    "ml.g6e.xlarge, true",
    "ml.p4d.24xlarge, true",
    "ml.p5.48xlarge, true",
    "ml.c5.xlarge, false",
    "ml.m5.large, false",
    "ml.inf2.xlarge, false",
    "ml.trn1.2xlarge, false",
    "ml.c7g.large, false"
  })
  void isGpuType_sageMakerFamilies_areGpuExactlyForGAndP(String type, boolean gpu) {
    assertThat(AwsEndpointSpec.isGpuType(type)).isEqualTo(gpu);
  }

  @Test
  void of_gpuTypeWithGpuImage_deploysTheGpuImageAndItsDigest() {
    AwsEndpointSpec spec = spec("ml.g5.xlarge", GPU_IMAGE);

    assertThat(spec.gpuInstance()).isTrue();
    assertThat(spec.imageUri()).isEqualTo(GPU_IMAGE);
    assertThat(spec.imageDigest()).isEqualTo(GPU_DIGEST);
    assertThat(spec.ecrRepository()).isEqualTo("speech-server-gpu");
    assertThat(spec.deployedConfig().imageDigest()).isEqualTo(GPU_DIGEST);
  }

  @Test
  void of_cpuTypeWithGpuImage_deploysTheCpuImage() {
    AwsEndpointSpec spec = spec("ml.c5.xlarge", GPU_IMAGE);

    assertThat(spec.gpuInstance()).isFalse();
    assertThat(spec.imageUri()).isEqualTo(AwsFixtures.IMAGE);
    assertThat(spec.imageDigest()).isEqualTo(AwsFixtures.DIGEST);
  }

  @Test
  void of_gpuTypeWithoutGpuImage_deploysImageUriAsWritten() {
    AwsEndpointSpec spec = spec("ml.g5.xlarge", null);

    assertThat(spec.gpuInstance()).isTrue();
    assertThat(spec.imageUri()).isEqualTo(AwsFixtures.IMAGE);
  }

  @Test
  void of_gpuImageNotInEcr_isRefusedNamingTheField() {
    assertThatThrownBy(() -> spec("ml.c5.xlarge", "docker.io/library/speech:gpu"))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("aws.gpu_image_uri ('docker.io/library/speech:gpu') must be an ECR");
  }

  @Test
  void endpointStack_gpuType_modelRunsTheGpuImageAndMayPullOnlyItsRepository(@TempDir Path out) {
    SpeechInfraApp app =
        SpeechInfraApp.build(
            dev.speechscale.artifacts.EndpointConfigFile.parse(
                    Path.of("endpoints.yaml"), withType("ml.g5.xlarge", GPU_IMAGE))
                .model(AwsFixtures.MODEL),
            null,
            "none",
            Synth.ACCOUNT,
            out);
    Template endpoint = Template.fromStack(app.endpoint());

    endpoint.hasResourceProperties(
        "AWS::SageMaker::Model",
        Map.of("PrimaryContainer", Match.objectLike(Map.of("Image", GPU_IMAGE))));
    endpoint.hasResourceProperties(
        "AWS::IAM::Policy",
        Synth.policyDocument(
            Match.arrayWith(
                java.util.List.of(
                    Match.objectLike(
                        Map.of(
                            "Sid",
                            "PullImage",
                            "Resource",
                            Synth.joinWith(
                                ":ecr:us-east-1:123456789012:repository/speech-server-gpu")))))));
  }
}
