package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * Every resource the stacks create that CloudFormation can tag carries the project tag, and the
 * model's resources also the endpoint and the plan they were deployed behind; and the execution
 * role publishes metrics only into the project's namespaces.
 */
class TagsTemplateTest {
  /**
   * Resource types the three stacks create that take no {@code Tags} property in CloudFormation.
   */
  private static final List<String> UNTAGGABLE =
      List.of(
          "AWS::IAM::Policy",
          "AWS::S3::BucketPolicy",
          "AWS::CloudFormation::CustomResource",
          "AWS::ApplicationAutoScaling::ScalableTarget",
          "AWS::ApplicationAutoScaling::ScalingPolicy",
          "AWS::Logs::MetricFilter",
          "AWS::CloudWatch::Dashboard",
          "AWS::CDK::Metadata",
          "Custom::AWS",
          "AWS::Lambda::Permission");

  @Test
  void everyTaggableResource_behindAMatchingPlan_carriesProjectEndpointAndPlanDigest(
      @TempDir Path out) {
    SpeechInfraApp app =
        SpeechInfraApp.build(
            AwsFixtures.config(), AwsFixtures.matchingPlan(), "plan.json", Map.of(), out);
    String digest = SpeechInfraApp.planDigest(AwsFixtures.matchingPlan());
    assertThat(digest).hasSize(12).matches("[0-9a-f]{12}");

    List<String> untagged = new ArrayList<>();
    untagged.addAll(
        untagged(
            Template.fromStack(app.foundation()),
            Map.of(SpeechInfraApp.TAG_PROJECT, "speechscale")));
    Map<String, String> model =
        Map.of(
            SpeechInfraApp.TAG_PROJECT, "speechscale",
            SpeechInfraApp.TAG_ENDPOINT, "speech-kokoro-82m",
            SpeechInfraApp.TAG_PLAN, digest);
    untagged.addAll(untagged(Template.fromStack(app.modelCache()), model));
    untagged.addAll(untagged(Template.fromStack(app.endpoint()), model));

    assertThat(untagged).isEmpty();
    Template.fromStack(app.endpoint())
        .hasResourceProperties(
            "AWS::SageMaker::Endpoint",
            Map.of(
                "Tags",
                Match.arrayWith(List.of(Map.of("Key", SpeechInfraApp.TAG_PLAN, "Value", digest)))));
  }

  @Test
  void planTag_withoutAPlan_isNone(@TempDir Path out) {
    SpeechInfraApp app = Synth.withoutPlan(AwsFixtures.config(), out);

    Template.fromStack(app.endpoint())
        .hasResourceProperties(
            "AWS::SageMaker::Model",
            Map.of(
                "Tags",
                Match.arrayWith(List.of(Map.of("Key", SpeechInfraApp.TAG_PLAN, "Value", "none")))));
  }

  @Test
  void executionRole_putMetricData_onlyIntoSpeechScaleNamespaces(@TempDir Path out) {
    SpeechInfraApp app = Synth.withoutPlan(AwsFixtures.config(), out);

    Template.fromStack(app.foundation())
        .hasResourceProperties(
            "AWS::IAM::Policy",
            Map.of(
                "PolicyDocument",
                Match.objectLike(
                    Map.of(
                        "Statement",
                        Match.arrayWith(
                            List.of(
                                Match.objectLike(
                                    Map.of(
                                        "Sid", "MetricsInSpeechScaleNamespaces",
                                        "Action", "cloudwatch:PutMetricData",
                                        "Resource", "*",
                                        "Condition",
                                            Map.of(
                                                "StringLike",
                                                Map.of(
                                                    "cloudwatch:namespace",
                                                    "SpeechScale/speech-*"))))))))));
  }

  /** Resources of a template missing one of {@code tags}, as {@code type logicalId: key}. */
  @SuppressWarnings("unchecked")
  private static List<String> untagged(Template template, Map<String, String> tags) {
    List<String> missing = new ArrayList<>();
    Map<String, Object> resources = (Map<String, Object>) template.toJSON().get("Resources");
    resources.forEach((id, r) -> {
      Map<String, Object> resource = (Map<String, Object>) r;
      String type = (String) resource.get("Type");
      if (UNTAGGABLE.contains(type) || type.startsWith("Custom::")) {
        return;
      }
      Map<String, Object> props =
          (Map<String, Object>) resource.getOrDefault("Properties", Map.of());
      Object t = props.get("Tags");
      String seen = String.valueOf(t);
      tags.forEach((k, v) -> {
        if (!(seen.contains("Key=" + k + ", Value=" + v)
            || seen.contains("Value=" + v + ", Key=" + k)
            || seen.contains(k + "=" + v))) {
          missing.add(type + " " + id + ": " + k);
        }
      });
    });
    return missing;
  }
}
