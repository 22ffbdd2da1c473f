package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ScalingGate;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.constructs.MetadataEntry;

/**
 * The three stacks with no plan beside the config: the foundation, the weights cache and the
 * endpoint itself are complete, and no scaling or observability resource exists (one synthesis
 * shared by all tests).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NoPlanTemplateTest {
  private SpeechInfraApp app;
  private Template foundation;
  private Template cache;
  private Template endpoint;

  @BeforeAll
  void synthesize(@TempDir Path out) {
    app = SpeechInfraApp.build(AwsFixtures.config(), null, "plan-kokoro-82m.json", Map.of(), out);
    foundation = Template.fromStack(app.foundation());
    cache = Template.fromStack(app.modelCache());
    endpoint = Template.fromStack(app.endpoint());
  }

  @Test
  void gate_noPlan_withholdsAndTheTemplateSaysWhy() {
    assertThat(app.decision()).isInstanceOf(ScalingGate.Decision.Withhold.class);
    assertThat(app.decision().reason())
        .contains("no plan artifact (looked for plan-kokoro-82m.json)");
    endpoint.hasOutput(
        "ScalingDecision",
        Map.of(
            "Value", Match.stringLikeRegexp("no plan artifact \\(looked for .*tts-bench plan.*")));
    assertThat(app.endpoint().getNode().getMetadata())
        .extracting(MetadataEntry::getType)
        .contains(EndpointStack.DECISION_METADATA);
  }

  @Test
  void gate_noPlan_createsNoScalingOrObservability() {
    Synth.assertNoScalingOrObservability(endpoint);
  }

  @Test
  void model_runsThePinnedImageWithQueueDepthAndTheWeightsMounted() {
    endpoint.hasResourceProperties(
        "AWS::SageMaker::Model",
        Map.of(
            "PrimaryContainer",
            Map.of(
                "Image",
                AwsFixtures.IMAGE,
                "Environment",
                Map.of("ENGINE", "kokoro", "MAX_QUEUE_DEPTH", "50", "WARMUP_TEXT", "Hello there."),
                "ModelDataSource",
                Map.of(
                    "S3DataSource",
                    Map.of(
                        "S3DataType",
                        "S3Prefix",
                        "CompressionType",
                        "None",
                        "S3Uri",
                        Match.anyValue())))));
    assertThat(endpoint.toJSON().toString())
        .contains("/models/hexgrad/Kokoro-82M/" + AwsFixtures.REVISION + "/");
  }

  @Test
  void endpointConfig_oneVariantLeastOutstandingRequestsAndA600sStartupCheck() {
    endpoint.hasResourceProperties(
        "AWS::SageMaker::EndpointConfig",
        Map.of(
            "ProductionVariants",
            List.of(
                Match.objectLike(
                    Map.of(
                        "VariantName",
                        "AllTraffic",
                        "InstanceType",
                        "ml.g5.xlarge",
                        "InitialInstanceCount",
                        1,
                        "InitialVariantWeight",
                        1,
                        "ContainerStartupHealthCheckTimeoutInSeconds",
                        600,
                        "RoutingConfig",
                        Map.of("RoutingStrategy", "LEAST_OUTSTANDING_REQUESTS"))))));
  }

  @Test
  void endpoint_namedForTheModelAndRetainsVariantProperties() {
    endpoint.hasResourceProperties(
        "AWS::SageMaker::Endpoint",
        Map.of("EndpointName", AwsFixtures.ENDPOINT, "RetainAllVariantProperties", true));
    endpoint.hasResourceProperties(
        "AWS::Logs::LogGroup",
        Map.of(
            "LogGroupName",
            "/aws/sagemaker/Endpoints/" + AwsFixtures.ENDPOINT,
            "RetentionInDays",
            30));
  }

  @Test
  void executionRole_mayPullOnlyItsRepositoryAndReadOnlyItsWeights() {
    String policy = endpoint.findResources("AWS::IAM::Policy").toString();
    assertThat(policy)
        .contains("ecr:BatchGetImage")
        .contains(":ecr:us-east-1:123456789012:repository/speech-server")
        .contains("s3:GetObject")
        .contains("models/hexgrad/Kokoro-82M/" + AwsFixtures.REVISION + "/*")
        .doesNotContain("s3:PutObject");
  }

  @Test
  void foundation_bucketIsVersionedPrivateAndRetained() {
    foundation.hasResource(
        "AWS::S3::Bucket",
        Map.of(
            "DeletionPolicy",
            "Retain",
            "Properties",
            Match.objectLike(
                Map.of(
                    "VersioningConfiguration",
                    Map.of("Status", "Enabled"),
                    "PublicAccessBlockConfiguration",
                    Map.of(
                        "BlockPublicAcls", true,
                        "BlockPublicPolicy", true,
                        "IgnorePublicAcls", true,
                        "RestrictPublicBuckets", true)))));
  }

  @Test
  void foundation_bucketRefusesPlainHttp() {
    foundation.hasResourceProperties(
        "AWS::S3::BucketPolicy",
        Synth.policyDocument(
            Match.arrayWith(
                List.of(
                    Match.objectLike(
                        Map.of(
                            "Effect",
                            "Deny",
                            "Condition",
                            Map.of("Bool", Map.of("aws:SecureTransport", "false"))))))));
  }

  @Test
  void foundation_rolesUseNoManagedPoliciesAndInvocationIsScopedToSpeechEndpoints() {
    assertThat(foundation.findResources("AWS::IAM::Role").values())
        .hasSize(2)
        .allSatisfy(role -> assertThat(role.toString()).doesNotContain("ManagedPolicyArns"));
    foundation.hasResourceProperties(
        "AWS::IAM::Role",
        Map.of(
            "AssumeRolePolicyDocument",
            Match.objectLike(
                Map.of(
                    "Statement",
                    List.of(
                        Match.objectLike(
                            Map.of("Principal", Map.of("Service", "sagemaker.amazonaws.com"))))))));
    String policies = foundation.findResources("AWS::IAM::Policy").toString();
    assertThat(policies)
        .contains("sagemaker:InvokeEndpointWithResponseStream")
        .contains(":endpoint/speech-*")
        .doesNotContain("sagemaker:*")
        .doesNotContain("AmazonSageMakerFullAccess");
  }

  @Test
  void modelCache_syncsThePinnedRevisionOnceWithAManifest() {
    String project = cache.findResources("AWS::CodeBuild::Project").toString();
    assertThat(project)
        .contains("snapshot_download")
        .contains("MANIFEST.sha256")
        .contains("head-object")
        .contains("sha256sum")
        .contains(AwsFixtures.REVISION)
        .contains("aws/codebuild/standard:7.0");
    cache.hasResourceProperties(
        "Custom::SpeechScaleWeights",
        Map.of("Repository", "hexgrad/Kokoro-82M", "Revision", AwsFixtures.REVISION));
    cache.hasResourceProperties(
        "AWS::Lambda::Function",
        Map.of(
            "Runtime",
            "python3.12",
            "Code",
            Map.of("ZipFile", Match.stringLikeRegexp("[\\s\\S]*start_build[\\s\\S]*"))));
    cache.hasResourceProperties(
        "AWS::Lambda::Function",
        Map.of(
            "Code",
            Map.of("ZipFile", Match.stringLikeRegexp("[\\s\\S]*batch_get_builds[\\s\\S]*"))));
  }

  @Test
  void stacks_noContext_areEnvironmentAgnostic() {
    assertThat(Token.isUnresolved(app.endpoint().getRegion())).isTrue();
    assertThat(Token.isUnresolved(app.endpoint().getAccount())).isTrue();
  }

  @Test
  void endpointStack_waitsForTheWeights() {
    assertThat(app.endpoint().getDependencies()).contains(app.modelCache());
    assertThat(app.stackNames())
        .containsExactly(
            "speech-foundation", "speech-model-cache-kokoro-82m", "speech-endpoint-kokoro-82m");
  }
}
