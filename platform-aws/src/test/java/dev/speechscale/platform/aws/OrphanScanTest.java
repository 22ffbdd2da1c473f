package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.speechscale.platform.OrphanedScaling;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.applicationautoscaling.model.Alarm;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalableTargetsRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalableTargetsResponse;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalingPoliciesRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalingPoliciesResponse;
import software.amazon.awssdk.services.applicationautoscaling.model.RegisterScalableTargetRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.ScalableTarget;
import software.amazon.awssdk.services.applicationautoscaling.model.ScalingPolicy;
import software.amazon.awssdk.services.cloudwatch.model.DescribeAlarmsRequest;
import software.amazon.awssdk.services.cloudwatch.model.DescribeAlarmsResponse;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataRequest;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;
import software.amazon.awssdk.services.cloudwatchlogs.model.DescribeLogStreamsRequest;
import software.amazon.awssdk.services.cloudwatchlogs.model.DescribeLogStreamsResponse;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetLogEventsRequest;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetLogEventsResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointConfigRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointConfigResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeModelRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeModelResponse;
import software.amazon.awssdk.services.sagemaker.model.SageMakerException;
import software.amazon.awssdk.services.sagemaker.model.UpdateEndpointWeightsAndCapacitiesRequest;

/**
 * The account-wide orphan scan over small fakes of the narrow interfaces: two pages of targets, one
 * live endpoint, one gone. The endpoint that is gone answers as SageMaker does (ValidationException
 * "Could not find endpoint").
 */
class OrphanScanTest {
  private static final String LIVE = "speech-live";
  private static final String GONE = "speech-gone";
  private final List<String> described = new ArrayList<>();

  private AwsApis.Clients clients() {
    Set<String> existing = Set.of(LIVE);
    AwsApis.SageMakerApi sm =
        new AwsApis.SageMakerApi() {
          @Override
          public DescribeEndpointResponse describeEndpoint(DescribeEndpointRequest r) {
            described.add(r.endpointName());
            if (!existing.contains(r.endpointName())) {
              throw SageMakerException.builder()
                  .statusCode(400)
                  .awsErrorDetails(
                      AwsErrorDetails.builder()
                          .errorCode("ValidationException")
                          .errorMessage("Could not find endpoint \"" + r.endpointName() + "\".")
                          .build())
                  .build();
            }
            return DescribeEndpointResponse.builder().endpointName(r.endpointName()).build();
          }

          @Override
          public DescribeEndpointConfigResponse describeEndpointConfig(
              DescribeEndpointConfigRequest r) {
            throw new UnsupportedOperationException();
          }

          @Override
          public DescribeModelResponse describeModel(DescribeModelRequest r) {
            throw new UnsupportedOperationException();
          }

          @Override
          public void updateEndpointWeightsAndCapacities(
              UpdateEndpointWeightsAndCapacitiesRequest r) {
            throw new UnsupportedOperationException("the scan must not mutate");
          }
        };
    AwsApis.AutoScalingApi aas =
        new AwsApis.AutoScalingApi() {
          @Override
          public software.amazon.awssdk.services.applicationautoscaling.model
                  .DescribeScheduledActionsResponse
              describeScheduledActions(
                  software.amazon.awssdk.services.applicationautoscaling.model
                          .DescribeScheduledActionsRequest
                      r) {
            throw new AssertionError("the orphan scan reads no scheduled actions");
          }

          @Override
          public DescribeScalableTargetsResponse describeScalableTargets(
              DescribeScalableTargetsRequest r) {
            ScalableTarget live = target(LIVE);
            ScalableTarget gone = target(GONE);
            return r.nextToken() == null
                ? DescribeScalableTargetsResponse.builder()
                    .scalableTargets(live)
                    .nextToken("page-2")
                    .build()
                : DescribeScalableTargetsResponse.builder().scalableTargets(gone).build();
          }

          @Override
          public DescribeScalingPoliciesResponse describeScalingPolicies(
              DescribeScalingPoliciesRequest r) {
            return DescribeScalingPoliciesResponse.builder()
                .scalingPolicies(policy(LIVE, "live-tt"), policy(GONE, "gone-step"))
                .build();
          }

          @Override
          public void registerScalableTarget(RegisterScalableTargetRequest r) {
            throw new UnsupportedOperationException("the scan must not mutate");
          }
        };
    AwsApis.CloudWatchApi cw =
        new AwsApis.CloudWatchApi() {
          @Override
          public DescribeAlarmsResponse describeAlarms(DescribeAlarmsRequest r) {
            return DescribeAlarmsResponse.builder()
                .metricAlarms(alarm("live-high", LIVE), alarm("gone-low", GONE), unrelated())
                .build();
          }

          @Override
          public GetMetricDataResponse getMetricData(GetMetricDataRequest r) {
            throw new UnsupportedOperationException();
          }
        };
    AwsApis.LogsApi logs =
        new AwsApis.LogsApi() {
          @Override
          public DescribeLogStreamsResponse describeLogStreams(DescribeLogStreamsRequest r) {
            throw new UnsupportedOperationException();
          }

          @Override
          public GetLogEventsResponse getLogEvents(GetLogEventsRequest r) {
            throw new UnsupportedOperationException();
          }
        };
    return new AwsApis.Clients(sm, aas, cw, logs);
  }

  private static ScalableTarget target(String endpoint) {
    return ScalableTarget.builder()
        .resourceId("endpoint/" + endpoint + "/variant/AllTraffic")
        .scalableDimension("sagemaker:variant:DesiredInstanceCount")
        .build();
  }

  private static ScalingPolicy policy(String endpoint, String name) {
    return ScalingPolicy.builder()
        .policyName(name)
        .policyType("StepScaling")
        .resourceId("endpoint/" + endpoint + "/variant/AllTraffic")
        .scalableDimension("sagemaker:variant:DesiredInstanceCount")
        .alarms(Alarm.builder().alarmName(name + "-alarm").build())
        .build();
  }

  private static MetricAlarm alarm(String name, String endpoint) {
    return MetricAlarm.builder()
        .alarmName(name)
        .namespace("AWS/SageMaker")
        .metricName("ConcurrentRequestsPerModel")
        .dimensions(
            Dimension.builder().name("EndpointName").value(endpoint).build(),
            Dimension.builder().name("VariantName").value("AllTraffic").build())
        .build();
  }

  private static MetricAlarm unrelated() {
    return MetricAlarm.builder()
        .alarmName("billing")
        .namespace("AWS/Billing")
        .metricName("EstimatedCharges")
        .build();
  }

  @Test
  void scan_goneEndpoint_reportsItsTargetPolicyAndAlarmWithTheCommandThatRemovesEach() {
    List<OrphanedScaling> found = new OrphanScan(clients()).scan();

    assertThat(found)
        .extracting(OrphanedScaling::kind, OrphanedScaling::name, OrphanedScaling::endpoint)
        .containsExactly(
            tuple(
                OrphanedScaling.Kind.SCALABLE_TARGET,
                "endpoint/speech-gone/variant/AllTraffic",
                GONE),
            tuple(OrphanedScaling.Kind.SCALING_POLICY, "gone-step", GONE),
            tuple(OrphanedScaling.Kind.ALARM, "gone-low", GONE));
    assertThat(found.get(0).detail()).contains("deregister-scalable-target");
    assertThat(found.get(1).detail()).contains("delete-scaling-policy");
    assertThat(found.get(2).detail()).contains("cloudwatch delete-alarms --alarm-names 'gone-low'");
  }

  @Test
  void scan_asksEachEndpointOnce() {
    new OrphanScan(clients()).scan();

    assertThat(described).containsExactly(LIVE, GONE);
  }

  @Test
  void endpointOf_resourceId_isTheEndpointName() {
    assertThat(OrphanScan.endpointOf("endpoint/speech-x/variant/AllTraffic")).contains("speech-x");
    assertThat(OrphanScan.endpointOf("table/other")).isEmpty();
  }
}
