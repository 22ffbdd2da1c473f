package dev.speechscale.platform.aws;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/** The shared stack's invocation role, read from the synthesized CloudFormation. */
class FoundationTemplateTest {
  @Test
  void invocationRole_allowsTheThreeRuntimeOperationsOnSpeechEndpointsOnly(@TempDir Path out) {
    SpeechInfraApp app = Synth.withoutPlan(AwsFixtures.config(), out);
    Template foundation = Template.fromStack(app.foundation());

    foundation.hasResourceProperties(
        "AWS::IAM::Policy",
        Map.of(
            "PolicyDocument",
            Match.objectLike(
                Map.of(
                    "Statement",
                    List.of(
                        Match.objectLike(
                            Map.of(
                                "Sid",
                                "InvokeSpeechEndpoints",
                                "Effect",
                                "Allow",
                                "Action",
                                List.of(
                                    "sagemaker:InvokeEndpoint",
                                    "sagemaker:InvokeEndpointWithResponseStream",
                                    "sagemaker:InvokeEndpointWithBidirectionalStream"),
                                "Resource",
                                Synth.joinWith(":endpoint/speech-*")))))),
            "Roles",
            List.of(Map.of("Ref", Match.stringLikeRegexp("InvocationRole.*")))));
  }

  @Test
  void imageRepository_isCreatedScannedAndRetained(@TempDir Path out) {
    SpeechInfraApp app = Synth.withoutPlan(AwsFixtures.config(), out);
    Template foundation = Template.fromStack(app.foundation());

    foundation.resourceCountIs("AWS::ECR::Repository", 1);
    foundation.hasResource(
        "AWS::ECR::Repository",
        Map.of(
            "Properties",
            Match.objectLike(
                Map.of(
                    "RepositoryName",
                    "speech-server",
                    "ImageScanningConfiguration",
                    Map.of("ScanOnPush", true))),
            "DeletionPolicy",
            "Retain"));
    foundation.hasOutput("ImageRepositoryUri", Match.anyValue());
  }
}
