package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.ScalingGate;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awscdk.assertions.Template;

/**
 * Every plan the gate refuses: the endpoint stack still deploys the endpoint but no scaling or
 * observability resource, and its {@code ScalingDecision} output says why.
 */
class WithheldScalingTemplateTest {

  static Stream<Arguments> refusedPlans() {
    DeployedConfig otherImage =
        new DeployedConfig("ml.g5.xlarge", "deadbeef" + "0".repeat(56), Map.of());
    return Stream.of(
        Arguments.of(
            "infeasible plan",
            AwsFixtures.config(),
            AwsFixtures.plan("INFEASIBLE", 37.5, 25.0, AwsFixtures.deployed(), 4),
            "is INFEASIBLE"),
        Arguments.of(
            "plan without units conversion",
            AwsFixtures.config(),
            AwsFixtures.plan("warn (1)", null, null, AwsFixtures.deployed(), 4),
            "no measured units conversion"),
        Arguments.of(
            "plan measured against another image",
            AwsFixtures.config(),
            AwsFixtures.plan("ok", 37.5, 25.0, otherImage, 4),
            "image_digest: 'deadbeef00000000000000000000000000000000000000000000000000000000' in the"
                + " measurement"),
        Arguments.of(
            "plan whose values the config contradicts",
            AwsFixtures.config(AwsFixtures.IMAGE, "    scaling_target_value: 30\n"),
            AwsFixtures.matchingPlan(),
            "models.kokoro-82m.scaling_target_value (30.0) differs from the plan's (37.5)"),
        Arguments.of(
            "image pinned by tag only",
            AwsFixtures.config(
                "123456789012.dkr.ecr.us-east-1.amazonaws.com/speech-server:1.0", ""),
            AwsFixtures.matchingPlan(),
            "pinned by tag only"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusedPlans")
  void synth_refusedPlan_noScalingAndTheOutputSaysWhy(
      String name, EndpointConfig config, PlanArtifact plan, String why, @TempDir Path out) {
    SpeechInfraApp app = SpeechInfraApp.build(config, plan, "plan-kokoro-82m.json", Map.of(), out);
    Template endpoint = Template.fromStack(app.endpoint());

    assertThat(app.decision()).isInstanceOf(ScalingGate.Decision.Withhold.class);
    assertThat(app.decision().reason()).contains(why);
    Synth.assertNoScalingOrObservability(endpoint);
    endpoint.resourceCountIs("AWS::SageMaker::Endpoint", 1);
    endpoint.hasOutput("ScalingDecision", Map.of("Value", app.decision().reason()));
  }
}
