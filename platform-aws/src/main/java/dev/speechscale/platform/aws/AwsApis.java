package dev.speechscale.platform.aws;

import java.net.URI;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.applicationautoscaling.ApplicationAutoScalingClient;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalableTargetsRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalableTargetsResponse;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalingPoliciesRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalingPoliciesResponse;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScheduledActionsRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScheduledActionsResponse;
import software.amazon.awssdk.services.applicationautoscaling.model.RegisterScalableTargetRequest;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.DescribeAlarmsRequest;
import software.amazon.awssdk.services.cloudwatch.model.DescribeAlarmsResponse;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataRequest;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.cloudwatchlogs.model.DescribeLogStreamsRequest;
import software.amazon.awssdk.services.cloudwatchlogs.model.DescribeLogStreamsResponse;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetLogEventsRequest;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetLogEventsResponse;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointConfigRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointConfigResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeModelRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeModelResponse;
import software.amazon.awssdk.services.sagemaker.model.UpdateEndpointWeightsAndCapacitiesRequest;

/**
 * The AWS calls {@link AwsPlatform} makes, one narrow interface per service holding only those
 * calls, so tests drive the provider through fakes and the real adapters are one-line delegations.
 * Requests and responses are the SDK's own model types: the mapping from them to the SPI is {@link
 * AwsPlatform}'s, and is what the tests exercise.
 */
public final class AwsApis {
  private AwsApis() {}

  /** SageMaker: the endpoint, its config, its model, and its desired instance count. */
  public interface SageMakerApi extends AutoCloseable {
    DescribeEndpointResponse describeEndpoint(DescribeEndpointRequest request);

    DescribeEndpointConfigResponse describeEndpointConfig(DescribeEndpointConfigRequest request);

    DescribeModelResponse describeModel(DescribeModelRequest request);

    void updateEndpointWeightsAndCapacities(UpdateEndpointWeightsAndCapacitiesRequest request);

    @Override
    default void close() {}
  }

  /** Application Auto Scaling: the scalable target, its policies, its suspended flags. */
  public interface AutoScalingApi extends AutoCloseable {
    DescribeScalableTargetsResponse describeScalableTargets(DescribeScalableTargetsRequest request);

    DescribeScalingPoliciesResponse describeScalingPolicies(DescribeScalingPoliciesRequest request);

    void registerScalableTarget(RegisterScalableTargetRequest request);

    /** The target's scheduled actions (the plan's scheduled floors). */
    DescribeScheduledActionsResponse describeScheduledActions(
        DescribeScheduledActionsRequest request);

    @Override
    default void close() {}
  }

  /** CloudWatch: alarm states and metric datapoints. */
  public interface CloudWatchApi extends AutoCloseable {
    DescribeAlarmsResponse describeAlarms(DescribeAlarmsRequest request);

    GetMetricDataResponse getMetricData(GetMetricDataRequest request);

    @Override
    default void close() {}
  }

  /** CloudWatch Logs: the endpoint's per-instance log streams. */
  public interface LogsApi extends AutoCloseable {
    DescribeLogStreamsResponse describeLogStreams(DescribeLogStreamsRequest request);

    GetLogEventsResponse getLogEvents(GetLogEventsRequest request);

    @Override
    default void close() {}
  }

  /**
   * The four interfaces together.
   *
   * @param sageMaker SageMaker
   * @param autoScaling Application Auto Scaling
   * @param cloudWatch CloudWatch
   * @param logs CloudWatch Logs
   */
  public record Clients(
      SageMakerApi sageMaker, AutoScalingApi autoScaling, CloudWatchApi cloudWatch, LogsApi logs)
      implements AutoCloseable {
    @Override
    public void close() {
      sageMaker.close();
      autoScaling.close();
      cloudWatch.close();
      logs.close();
    }
  }

  /**
   * Attempts per control-plane call, the first included: the SDK's adaptive default (3), stated so
   * that a test can count them on the wire. This is the whole ceiling: the SDK is the one owner of
   * control-plane retries ({@link AwsPlatform#retriesThrottling()}), so the chain's retrying
   * wrapper does not multiply it.
   */
  static final int CONTROL_PLANE_ATTEMPTS = 3;

  /**
   * The one retry configuration of every control-plane client: the SDK's adaptive retry strategy
   * ({@code RetryMode.ADAPTIVE_V2}: standard retries with exponential backoff on throttling and
   * transient errors, plus a client-side rate limiter that slows the client down after a throttle)
   * and {@link #CONTROL_PLANE_ATTEMPTS} attempts. Built anew per client, so each service's limiter
   * learns its own limit. The response-stream invoker is not a control-plane client: it keeps
   * retries off.
   */
  static ClientOverrideConfiguration controlPlane() {
    return ClientOverrideConfiguration.builder()
        .retryStrategy(
            AwsRetryStrategy.adaptiveRetryStrategy().toBuilder()
                .maxAttempts(CONTROL_PLANE_ATTEMPTS)
                .build())
        .build();
  }

  /** Real SDK clients for one region, with the adaptive retry of {@link #controlPlane()}. */
  public static Clients sdk(Region region, AwsCredentialsProvider credentials) {
    return sdk(region, credentials, null);
  }

  /**
   * Real SDK clients for one region, all four sent to {@code endpoint} when it is not null (a local
   * stand-in that serves every service on one address: the tests' wire fake, or the local
   * platform's AWS-shaped control plane).
   */
  public static Clients sdk(
      Region region, AwsCredentialsProvider credentials, @Nullable URI endpoint) {
    return new Clients(
        sageMaker(client(SageMakerClient.builder(), region, credentials, endpoint)),
        autoScaling(client(ApplicationAutoScalingClient.builder(), region, credentials, endpoint)),
        cloudWatch(client(CloudWatchClient.builder(), region, credentials, endpoint)),
        logs(client(CloudWatchLogsClient.builder(), region, credentials, endpoint)));
  }

  /**
   * One service's client: the region, the credentials, the adaptive retry of {@link
   * #controlPlane()}, Apache HTTP, and {@code endpoint} when it is not null.
   */
  static <B extends AwsSyncClientBuilder<B, C> & AwsClientBuilder<B, C>, C> C client(
      B builder, Region region, AwsCredentialsProvider credentials, @Nullable URI endpoint) {
    builder
        .region(region)
        .credentialsProvider(credentials)
        .overrideConfiguration(controlPlane())
        .httpClientBuilder(ApacheHttpClient.builder());
    if (endpoint != null) {
      builder.endpointOverride(endpoint);
    }
    return builder.build();
  }

  private static SageMakerApi sageMaker(SageMakerClient sm) {
    return new SageMakerApi() {
      @Override
      public DescribeEndpointResponse describeEndpoint(DescribeEndpointRequest r) {
        return sm.describeEndpoint(r);
      }

      @Override
      public DescribeEndpointConfigResponse describeEndpointConfig(
          DescribeEndpointConfigRequest r) {
        return sm.describeEndpointConfig(r);
      }

      @Override
      public DescribeModelResponse describeModel(DescribeModelRequest r) {
        return sm.describeModel(r);
      }

      @Override
      public void updateEndpointWeightsAndCapacities(UpdateEndpointWeightsAndCapacitiesRequest r) {
        sm.updateEndpointWeightsAndCapacities(r);
      }

      @Override
      public void close() {
        sm.close();
      }
    };
  }

  private static AutoScalingApi autoScaling(ApplicationAutoScalingClient aas) {
    return new AutoScalingApi() {
      @Override
      public DescribeScalableTargetsResponse describeScalableTargets(
          DescribeScalableTargetsRequest r) {
        return aas.describeScalableTargets(r);
      }

      @Override
      public DescribeScalingPoliciesResponse describeScalingPolicies(
          DescribeScalingPoliciesRequest r) {
        return aas.describeScalingPolicies(r);
      }

      @Override
      public void registerScalableTarget(RegisterScalableTargetRequest r) {
        aas.registerScalableTarget(r);
      }

      @Override
      public DescribeScheduledActionsResponse describeScheduledActions(
          DescribeScheduledActionsRequest r) {
        return aas.describeScheduledActions(r);
      }

      @Override
      public void close() {
        aas.close();
      }
    };
  }

  private static CloudWatchApi cloudWatch(CloudWatchClient cw) {
    return new CloudWatchApi() {
      @Override
      public DescribeAlarmsResponse describeAlarms(DescribeAlarmsRequest r) {
        return cw.describeAlarms(r);
      }

      @Override
      public GetMetricDataResponse getMetricData(GetMetricDataRequest r) {
        return cw.getMetricData(r);
      }

      @Override
      public void close() {
        cw.close();
      }
    };
  }

  private static LogsApi logs(CloudWatchLogsClient logs) {
    return new LogsApi() {
      @Override
      public DescribeLogStreamsResponse describeLogStreams(DescribeLogStreamsRequest r) {
        return logs.describeLogStreams(r);
      }

      @Override
      public GetLogEventsResponse getLogEvents(GetLogEventsRequest r) {
        return logs.getLogEvents(r);
      }

      @Override
      public void close() {
        logs.close();
      }
    };
  }
}
