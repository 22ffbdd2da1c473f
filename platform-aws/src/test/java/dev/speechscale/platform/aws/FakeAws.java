package dev.speechscale.platform.aws;

import dev.speechscale.platform.StageMarker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.applicationautoscaling.model.Alarm;
import software.amazon.awssdk.services.applicationautoscaling.model.ApplicationAutoScalingException;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalableTargetsRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalableTargetsResponse;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalingPoliciesRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalingPoliciesResponse;
import software.amazon.awssdk.services.applicationautoscaling.model.RegisterScalableTargetRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.ScalableTarget;
import software.amazon.awssdk.services.applicationautoscaling.model.ScalingPolicy;
import software.amazon.awssdk.services.applicationautoscaling.model.StepAdjustment;
import software.amazon.awssdk.services.applicationautoscaling.model.SuspendedState;
import software.amazon.awssdk.services.cloudwatch.model.DescribeAlarmsRequest;
import software.amazon.awssdk.services.cloudwatch.model.DescribeAlarmsResponse;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataRequest;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;
import software.amazon.awssdk.services.cloudwatch.model.Metric;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataQuery;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataResult;
import software.amazon.awssdk.services.cloudwatch.model.MetricStat;
import software.amazon.awssdk.services.cloudwatchlogs.model.CloudWatchLogsException;
import software.amazon.awssdk.services.cloudwatchlogs.model.DescribeLogStreamsRequest;
import software.amazon.awssdk.services.cloudwatchlogs.model.DescribeLogStreamsResponse;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetLogEventsRequest;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetLogEventsResponse;
import software.amazon.awssdk.services.cloudwatchlogs.model.LogStream;
import software.amazon.awssdk.services.cloudwatchlogs.model.OutputLogEvent;
import software.amazon.awssdk.services.sagemaker.model.ContainerDefinition;
import software.amazon.awssdk.services.sagemaker.model.DeployedImage;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointConfigRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointConfigResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeModelRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeModelResponse;
import software.amazon.awssdk.services.sagemaker.model.ProductionVariant;
import software.amazon.awssdk.services.sagemaker.model.ProductionVariantSummary;
import software.amazon.awssdk.services.sagemaker.model.SageMakerException;
import software.amazon.awssdk.services.sagemaker.model.UpdateEndpointWeightsAndCapacitiesRequest;

/**
 * One SageMaker endpoint as the four AWS services would report it, deployed by the endpoint stack
 * behind {@link AwsFixtures#matchingPlan()}: a variant with a scalable target (1..4), the two
 * policies and their alarms, a log group with one stream per instance, and metrics. A scale-out
 * stays {@code Updating} until {@link #completeUpdate()} brings the new instances into service,
 * each writing a log stream with the container's byte-exact stage markers.
 *
 * <p>Listings page one item at a time so that every reader's pagination is exercised. Errors are
 * the SDK's own exception types with the codes AWS uses. Mutable state has one owner: this object,
 * under its monitor.
 */
final class FakeAws {
  static final String VARIANT = "AllTraffic";
  static final String CONFIG = "speech-kokoro-82m-config";
  static final String MODEL = "speech-kokoro-82m-model";
  static final String RESOURCE_ID = "endpoint/speech-kokoro-82m/variant/AllTraffic";
  static final String SCALE_IN_ALARM = "speech-kokoro-82m-scale-in";
  static final String HIGH_ALARM =
      "TargetTracking-" + RESOURCE_ID + "-AlarmHigh-0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0";
  static final String POLICY_ARN_PREFIX =
      "arn:aws:autoscaling:us-east-1:123456789012:scalingPolicy:1234:resource/sagemaker/"
          + RESOURCE_ID
          + ":policyName/";

  private final Clock clock;
  private String status = "InService";
  private int desired = 1;
  private int current = 1;
  private int instancesStarted;
  private boolean targetRegistered = true;
  private SuspendedState suspended = SuspendedState.builder().build();
  private final Map<String, List<OutputLogEvent>> streams = new LinkedHashMap<>();
  private final Map<String, Long> firstEvents = new HashMap<>();
  private final Map<String, String> environment = new LinkedHashMap<>();
  private RuntimeException failNext;
  final List<Object> requests = new ArrayList<>();

  FakeAws(Clock clock) {
    this.clock = clock;
    environment.put("MAX_QUEUE_DEPTH", "50");
    environment.put("CONTAINER_START_EPOCH", "1754319600");
    environment.put("ENGINE", "kokoro");
    environment.put("WARMUP_TEXT", "Hello there.");
    startInstance(clock.instant().minus(Duration.ofHours(1)));
  }

  AwsApis.Clients clients() {
    return new AwsApis.Clients(new SageMaker(), new AutoScaling(), new CloudWatch(), new Logs());
  }

  /** The next call to any service throws {@code e}. */
  synchronized void failNext(RuntimeException e) {
    failNext = e;
  }

  synchronized void deregisterTarget() {
    targetRegistered = false;
  }

  /** Brings the variant to its desired count; new instances log their startup. */
  synchronized void completeUpdate() {
    while (current < desired) {
      startInstance(clock.instant());
      current++;
    }
    current = desired;
    status = "InService";
  }

  synchronized int current() {
    return current;
  }

  private void startInstance(Instant at) {
    instancesStarted++;
    String stream = VARIANT + "/i-0" + Integer.toHexString(0xa000 + instancesStarted);
    List<OutputLogEvent> events = new ArrayList<>();
    long t = at.toEpochMilli();
    events.add(event(t, "speech-server starting\n"));
    double elapsed = 1.0;
    for (String stage : StageMarker.STAGES) {
      Instant stamp = Instant.ofEpochMilli(t + (long) (elapsed * 1000));
      events.add(event(stamp.toEpochMilli(), new StageMarker(stage, stamp, elapsed).line() + "\n"));
      elapsed += 2.5;
    }
    events.add(event(t + 20_000, "speech-server listening on 0.0.0.0:8080"));
    streams.put(stream, events);
    firstEvents.put(stream, t);
  }

  private static OutputLogEvent event(long at, String message) {
    return OutputLogEvent.builder().timestamp(at).message(message).ingestionTime(at + 5).build();
  }

  private synchronized <T> T answer(Object request, Supplier<T> body) {
    requests.add(request);
    if (failNext != null) {
      RuntimeException e = failNext;
      failNext = null;
      throw e;
    }
    return body.get();
  }

  static AwsServiceException error(
      AwsServiceException.Builder b, int status, String code, String message) {
    return b.statusCode(status)
        .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(message).build())
        .build();
  }

  private final class SageMaker implements AwsApis.SageMakerApi {
    @Override
    public DescribeEndpointResponse describeEndpoint(DescribeEndpointRequest r) {
      return answer(
          r,
          () -> {
            if (!r.endpointName().equals(AwsFixtures.ENDPOINT)) {
              throw error(
                  SageMakerException.builder(),
                  400,
                  "ValidationException",
                  "Could not find endpoint \"" + r.endpointName() + "\".");
            }
            return DescribeEndpointResponse.builder()
                .endpointName(AwsFixtures.ENDPOINT)
                .endpointConfigName(CONFIG)
                .endpointStatus(status)
                .productionVariants(
                    ProductionVariantSummary.builder()
                        .variantName(VARIANT)
                        .desiredInstanceCount(desired)
                        .currentInstanceCount(current)
                        .deployedImages(
                            DeployedImage.builder()
                                .specifiedImage(AwsFixtures.IMAGE)
                                .resolvedImage(AwsFixtures.IMAGE)
                                .build())
                        .build())
                .build();
          });
    }

    @Override
    public DescribeEndpointConfigResponse describeEndpointConfig(DescribeEndpointConfigRequest r) {
      return answer(
          r,
          () ->
              DescribeEndpointConfigResponse.builder()
                  .endpointConfigName(CONFIG)
                  .productionVariants(
                      ProductionVariant.builder()
                          .variantName(VARIANT)
                          .modelName(MODEL)
                          .instanceType("ml.g5.xlarge")
                          .initialInstanceCount(1)
                          .build())
                  .build());
    }

    @Override
    public DescribeModelResponse describeModel(DescribeModelRequest r) {
      return answer(
          r,
          () ->
              DescribeModelResponse.builder()
                  .modelName(MODEL)
                  .primaryContainer(
                      ContainerDefinition.builder()
                          .image(AwsFixtures.IMAGE)
                          .environment(environment)
                          .build())
                  .build());
    }

    @Override
    public void updateEndpointWeightsAndCapacities(UpdateEndpointWeightsAndCapacitiesRequest r) {
      answer(
          r,
          () -> {
            if (!status.equals("InService")) {
              throw error(
                  SageMakerException.builder(),
                  400,
                  "ValidationException",
                  "Cannot update in-progress endpoint");
            }
            desired = r.desiredWeightsAndCapacities().getFirst().desiredInstanceCount();
            status = "Updating";
            return null;
          });
    }
  }

  private final class AutoScaling implements AwsApis.AutoScalingApi {
    @Override
    public DescribeScalableTargetsResponse describeScalableTargets(
        DescribeScalableTargetsRequest r) {
      return answer(
          r,
          () ->
              DescribeScalableTargetsResponse.builder()
                  .scalableTargets(
                      targetRegistered && r.resourceIds().contains(RESOURCE_ID)
                          ? List.of(
                              ScalableTarget.builder()
                                  .serviceNamespace("sagemaker")
                                  .resourceId(RESOURCE_ID)
                                  .scalableDimension(AwsNames.SCALABLE_DIMENSION)
                                  .minCapacity(1)
                                  .maxCapacity(4)
                                  .suspendedState(suspended)
                                  .build())
                          : List.of())
                  .build());
    }

    @Override
    public DescribeScalingPoliciesResponse describeScalingPolicies(
        DescribeScalingPoliciesRequest r) {
      return answer(
          r,
          () -> {
            ScalingPolicy tracking =
                ScalingPolicy.builder()
                    .policyName("speech-kokoro-82m-target-tracking")
                    .policyType("TargetTrackingScaling")
                    .resourceId(RESOURCE_ID)
                    .targetTrackingScalingPolicyConfiguration(c ->
                        c.predefinedMetricSpecification(p ->
                                p.predefinedMetricType(
                                    "SageMakerVariantConcurrentRequestsPerModelHighResolution"))
                            .targetValue(37.5)
                            .scaleOutCooldown(30)
                            .disableScaleIn(true))
                    .alarms(Alarm.builder().alarmName(HIGH_ALARM).build())
                    .build();
            ScalingPolicy step =
                ScalingPolicy.builder()
                    .policyName("speech-kokoro-82m-scale-in-step")
                    .policyType("StepScaling")
                    .resourceId(RESOURCE_ID)
                    .stepScalingPolicyConfiguration(c ->
                        c.adjustmentType("ChangeInCapacity")
                            .cooldown(960)
                            .metricAggregationType("Average")
                            .stepAdjustments(
                                StepAdjustment.builder()
                                    .metricIntervalUpperBound(0.0)
                                    .scalingAdjustment(-1)
                                    .build()))
                    .alarms(Alarm.builder().alarmName(SCALE_IN_ALARM).build())
                    .build();
            // One policy per page: the second page is asked for with the first page's token.
            return r.nextToken() == null
                ? DescribeScalingPoliciesResponse.builder()
                    .scalingPolicies(tracking)
                    .nextToken("page-2")
                    .build()
                : DescribeScalingPoliciesResponse.builder().scalingPolicies(step).build();
          });
    }

    @Override
    public void registerScalableTarget(RegisterScalableTargetRequest r) {
      answer(
          r,
          () -> {
            if (!targetRegistered) {
              throw error(
                  ApplicationAutoScalingException.builder(),
                  400,
                  "ValidationException",
                  "minCapacity and maxCapacity are required to register a new target");
            }
            suspended = r.suspendedState();
            return null;
          });
    }
  }

  private final class CloudWatch implements AwsApis.CloudWatchApi {
    @Override
    public DescribeAlarmsResponse describeAlarms(DescribeAlarmsRequest r) {
      return answer(
          r,
          () -> {
            List<MetricAlarm> out = new ArrayList<>();
            if (r.alarmNames().contains(SCALE_IN_ALARM)) {
              out.add(
                  MetricAlarm.builder()
                      .alarmName(SCALE_IN_ALARM)
                      .namespace("AWS/SageMaker")
                      .metricName("ConcurrentRequestsPerModel")
                      .statistic("Average")
                      .period(60)
                      .evaluationPeriods(3)
                      .threshold(25.0)
                      .comparisonOperator("LessThanOrEqualToThreshold")
                      .stateValue("OK")
                      .alarmActions(POLICY_ARN_PREFIX + "speech-kokoro-82m-scale-in-step")
                      .build());
            }
            if (r.alarmNames().contains(HIGH_ALARM)) {
              out.add(
                  MetricAlarm.builder()
                      .alarmName(HIGH_ALARM)
                      .metrics(
                          MetricDataQuery.builder()
                              .id("m1")
                              .returnData(true)
                              .metricStat(
                                  MetricStat.builder()
                                      .metric(
                                          Metric.builder()
                                              .namespace("AWS/SageMaker")
                                              .metricName("ConcurrentRequestsPerModel")
                                              .build())
                                      .period(10)
                                      .stat("Maximum")
                                      .build())
                              .build())
                      .evaluationPeriods(3)
                      .threshold(37.5)
                      .comparisonOperator("GreaterThanThreshold")
                      .stateValue("INSUFFICIENT_DATA")
                      .alarmActions(POLICY_ARN_PREFIX + "speech-kokoro-82m-target-tracking")
                      .build());
            }
            return DescribeAlarmsResponse.builder().metricAlarms(out).build();
          });
    }

    @Override
    public GetMetricDataResponse getMetricData(GetMetricDataRequest r) {
      return answer(
          r,
          () -> {
            int period = r.metricDataQueries().getFirst().metricStat().period();
            List<Instant> at = new ArrayList<>();
            List<Double> values = new ArrayList<>();
            Instant t = r.startTime().plusSeconds(period - r.startTime().getEpochSecond() % period);
            int half = r.nextToken() == null ? 0 : 1;
            for (int i = 0; t.isBefore(r.endTime()); i++, t = t.plusSeconds(period)) {
              if (i % 2 == half) {
                at.add(t);
                values.add((double) (i % 7));
              }
            }
            // Two pages, interleaved in time: the reader must merge and sort them.
            return GetMetricDataResponse.builder()
                .metricDataResults(
                    MetricDataResult.builder().id("m0").timestamps(at).values(values).build())
                .nextToken(r.nextToken() == null ? "page-2" : null)
                .build();
          });
    }
  }

  private final class Logs implements AwsApis.LogsApi {
    @Override
    public DescribeLogStreamsResponse describeLogStreams(DescribeLogStreamsRequest r) {
      return answer(
          r,
          () -> {
            if (!r.logGroupName().equals(AwsNames.logGroup(AwsFixtures.ENDPOINT))) {
              throw error(
                  CloudWatchLogsException.builder(),
                  400,
                  "ResourceNotFoundException",
                  "The specified log group does not exist.");
            }
            List<String> names = new ArrayList<>(streams.keySet());
            int index = r.nextToken() == null ? 0 : Integer.parseInt(r.nextToken());
            String name = names.get(index);
            return DescribeLogStreamsResponse.builder()
                .logStreams(
                    LogStream.builder()
                        .logStreamName(name)
                        .firstEventTimestamp(firstEvents.get(name))
                        .build())
                .nextToken(index + 1 < names.size() ? Integer.toString(index + 1) : null)
                .build();
          });
    }

    @Override
    public GetLogEventsResponse getLogEvents(GetLogEventsRequest r) {
      return answer(
          r,
          () -> {
            List<OutputLogEvent> events = streams.get(r.logStreamName());
            int from = r.nextToken() == null ? 0 : Integer.parseInt(r.nextToken().substring(2));
            int to = Math.min(events.size(), from + 2);
            return GetLogEventsResponse.builder()
                .events(events.subList(from, to))
                .nextForwardToken("f/" + to)
                .build();
          });
    }
  }
}
