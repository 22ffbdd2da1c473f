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
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * The endpoint stack behind a matching plan: every scaling and observability resource and property
 * the plan deploys, read from the synthesized CloudFormation (one synthesis shared by all tests).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MatchingPlanTemplateTest {
  private static final String ENDPOINT = AwsFixtures.ENDPOINT;

  private SpeechInfraApp app;
  private Template endpoint;

  @BeforeAll
  void synthesize(@TempDir Path out) {
    app =
        SpeechInfraApp.build(
            AwsFixtures.config(),
            AwsFixtures.matchingPlan(),
            "plan-kokoro-82m.json",
            Map.of("account", "123456789012", "region", "us-east-1"),
            out);
    endpoint = Template.fromStack(app.endpoint());
  }

  @Test
  void gate_matchingPlan_attaches() {
    assertThat(app.decision()).isInstanceOf(ScalingGate.Decision.Attach.class);
    endpoint.hasOutput(
        "ScalingDecision",
        Map.of("Value", Match.stringLikeRegexp("scaling attached behind plan-kokoro-82m.json.*")));
  }

  @Test
  void stacks_accountAndRegionFromContext_areTheirEnvironment() {
    assertThat(app.endpoint().getAccount()).isEqualTo("123456789012");
    assertThat(app.endpoint().getRegion()).isEqualTo("us-east-1");
    assertThat(app.foundation().getRegion()).isEqualTo("us-east-1");
    assertThat(app.targetDescription()).isEqualTo("account 123456789012, region us-east-1");
  }

  @Test
  void scalableTarget_spansMinToMaxOnTheVariant() {
    endpoint.resourceCountIs("AWS::ApplicationAutoScaling::ScalableTarget", 1);
    endpoint.hasResourceProperties(
        "AWS::ApplicationAutoScaling::ScalableTarget",
        Map.of(
            "MinCapacity",
            1,
            "MaxCapacity",
            4,
            "ResourceId",
            "endpoint/" + ENDPOINT + "/variant/AllTraffic",
            "ScalableDimension",
            "sagemaker:variant:DesiredInstanceCount",
            "ServiceNamespace",
            "sagemaker"));
  }

  @Test
  void scaleOut_tracksTheHighResolutionMetricWithScaleInDisabled() {
    endpoint.resourceCountIs("AWS::ApplicationAutoScaling::ScalingPolicy", 2);
    endpoint.hasResourceProperties(
        "AWS::ApplicationAutoScaling::ScalingPolicy",
        Map.of(
            "PolicyName",
            ENDPOINT + "-target-tracking",
            "PolicyType",
            "TargetTrackingScaling",
            "TargetTrackingScalingPolicyConfiguration",
            Match.exact(
                Map.of(
                    "PredefinedMetricSpecification",
                    Map.of(
                        "PredefinedMetricType",
                        "SageMakerVariantConcurrentRequestsPerModelHighResolution"),
                    "TargetValue",
                    37.5,
                    "DisableScaleIn",
                    true,
                    "ScaleOutCooldown",
                    30))));
  }

  @Test
  void scaleIn_removesOneInstanceWithThePlansCooldown() {
    endpoint.hasResourceProperties(
        "AWS::ApplicationAutoScaling::ScalingPolicy",
        Map.of(
            "PolicyName",
            ENDPOINT + "-scale-in-step",
            "PolicyType",
            "StepScaling",
            "StepScalingPolicyConfiguration",
            Match.exact(
                Map.of(
                    "AdjustmentType",
                    "ChangeInCapacity",
                    "Cooldown",
                    960,
                    "MetricAggregationType",
                    "Average",
                    "StepAdjustments",
                    List.of(Map.of("MetricIntervalUpperBound", 0, "ScalingAdjustment", -1))))));
  }

  @Test
  void scaleInAlarm_averageOverSixtySecondsForThreePeriodsAtTheThreshold() {
    endpoint.hasResourceProperties(
        "AWS::CloudWatch::Alarm",
        Map.of(
            "AlarmName",
            ENDPOINT + "-scale-in",
            "Namespace",
            "AWS/SageMaker",
            "MetricName",
            "ConcurrentRequestsPerModel",
            "Statistic",
            "Average",
            "Period",
            60,
            "EvaluationPeriods",
            3,
            "DatapointsToAlarm",
            3,
            "Threshold",
            25,
            "ComparisonOperator",
            "LessThanOrEqualToThreshold",
            "Dimensions",
            List.of(
                Map.of("Name", "EndpointName", "Value", ENDPOINT),
                Map.of("Name", "VariantName", "Value", "AllTraffic"))));
    endpoint.hasResourceProperties(
        "AWS::CloudWatch::Alarm",
        Map.of(
            "AlarmName",
            ENDPOINT + "-scale-in",
            "TreatMissingData",
            "notBreaching",
            "AlarmActions",
            List.of(Map.of("Ref", Match.stringLikeRegexp("AutoscalingScaleIn.*")))));
  }

  @Test
  void firstChunkAlarm_p95InMicrosecondsOfThePlansValue() {
    endpoint.hasResourceProperties(
        "AWS::CloudWatch::Alarm",
        Map.of(
            "AlarmName", ENDPOINT + "-first-chunk-latency-p95",
            "MetricName", "FirstChunkLatency",
            "Namespace", "AWS/SageMaker",
            "ExtendedStatistic", "p95",
            "Period", 60,
            "Threshold", 65400,
            "ComparisonOperator", "GreaterThanThreshold",
            "EvaluationPeriods", 3,
            "TreatMissingData", "notBreaching"));
    assertThat(endpoint.findResources("AWS::CloudWatch::Alarm").values())
        .allSatisfy(alarm -> assertThat(properties(alarm)).doesNotContainKey("Unit"));
  }

  @Test
  void serverErrorAlarm_subtractsExactlyTheDeliberateHttp503sFromInvocation5xx() {
    endpoint.hasResourceProperties(
        "AWS::CloudWatch::Alarm",
        Map.of(
            "AlarmName",
            ENDPOINT + "-server-errors",
            "Threshold",
            1,
            "ComparisonOperator",
            "GreaterThanOrEqualToThreshold",
            "Metrics",
            Match.arrayWith(
                List.of(
                    Match.objectLike(Map.of("Expression", "FILL(errors, 0) - FILL(deliberate, 0)")),
                    Match.objectLike(
                        Map.of(
                            "Id",
                            "errors",
                            "MetricStat",
                            Match.objectLike(
                                Map.of(
                                    "Metric",
                                    Match.objectLike(
                                        Map.of(
                                            "MetricName", "Invocation5XXErrors",
                                            "Namespace", "AWS/SageMaker")),
                                    "Stat",
                                    "Sum",
                                    "Period",
                                    60)))),
                    Match.objectLike(
                        Map.of(
                            "Id",
                            "deliberate",
                            "MetricStat",
                            Match.objectLike(
                                Map.of(
                                    "Metric",
                                    Match.objectLike(
                                        Map.of(
                                            "MetricName",
                                            "DeliberateHttp503",
                                            "Namespace",
                                            "SpeechScale/" + ENDPOINT)),
                                    "Stat",
                                    "Sum"))))))));
  }

  @Test
  void deliberate503s_countedFromTheContainersDeliberate503Line() {
    endpoint.hasResourceProperties(
        "AWS::Logs::MetricFilter",
        Map.of(
            "FilterPattern",
            "{ $.event = \"deliberate_503\" }",
            "MetricTransformations",
            List.of(
                Map.of(
                    "MetricNamespace",
                    "SpeechScale/" + ENDPOINT,
                    "MetricName",
                    "DeliberateHttp503",
                    "MetricValue",
                    "$.count",
                    "DefaultValue",
                    0))));
  }

  @Test
  void loadShedding_countedFromTheContainersQueueSaturatedLine() {
    endpoint.hasResourceProperties(
        "AWS::Logs::MetricFilter",
        Map.of(
            "FilterPattern",
            "{ $.event = \"queue_saturated\" }",
            "MetricTransformations",
            List.of(
                Map.of(
                    "MetricNamespace",
                    "SpeechScale/" + ENDPOINT,
                    "MetricName",
                    "QueueSaturatedRejections",
                    "MetricValue",
                    "$.count",
                    "DefaultValue",
                    0))));
    endpoint.hasResourceProperties(
        "AWS::CloudWatch::Alarm",
        Map.of(
            "AlarmName",
            ENDPOINT + "-load-shedding",
            "MetricName",
            "QueueSaturatedRejections",
            "Statistic",
            "Sum",
            "EvaluationPeriods",
            3,
            "DatapointsToAlarm",
            3));
  }

  @Test
  void dashboard_oneNamedForTheEndpoint() {
    endpoint.resourceCountIs("AWS::CloudWatch::Dashboard", 1);
    endpoint.hasResourceProperties(
        "AWS::CloudWatch::Dashboard", Map.of("DashboardName", ENDPOINT + "-scaling"));
    String body = endpoint.toJSON().toString();
    assertThat(body)
        .contains("ConcurrentRequestsPerModel")
        .contains("FirstChunkLatency")
        .contains("scaling_target_value")
        .contains("scale_in_threshold");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> properties(Object resource) {
    return (Map<String, Object>) ((Map<String, Object>) resource).get("Properties");
  }

  @Test
  void scaleInAlarm_configNamingMaximum10s_deploysTheMaximumOverTenSeconds(@TempDir Path out) {
    SpeechInfraApp app2 =
        SpeechInfraApp.build(
            AwsFixtures.config(AwsFixtures.IMAGE, "    scale_in_alarm: maximum_10s\n"),
            AwsFixtures.matchingPlan(),
            "plan-kokoro-82m.json",
            Map.of("account", "123456789012", "region", "us-east-1"),
            out);
    Template t = Template.fromStack(app2.endpoint());

    t.hasResourceProperties(
        "AWS::CloudWatch::Alarm",
        Map.of(
            "AlarmName",
            ENDPOINT + "-scale-in",
            "Statistic",
            "Maximum",
            "Period",
            10,
            "EvaluationPeriods",
            3,
            "Threshold",
            25));
    t.hasResourceProperties(
        "AWS::ApplicationAutoScaling::ScalingPolicy",
        Map.of(
            "PolicyName",
            ENDPOINT + "-scale-in-step",
            "StepScalingPolicyConfiguration",
            Match.objectLike(Map.of("MetricAggregationType", "Maximum"))));
  }
}
