package dev.speechscale.platform.aws;

/**
 * Names the stacks give to what they create, in one place so that the SDK provider, {@code drift}
 * and the deploy summary read back exactly what was deployed.
 */
public final class AwsNames {
  private AwsNames() {}

  /** The shared foundation stack (model bucket, execution and invocation roles). */
  public static final String FOUNDATION_STACK = "speech-foundation";

  /** The namespace of SageMaker's endpoint invocation metrics. */
  public static final String SAGEMAKER_NAMESPACE = "AWS/SageMaker";

  /**
   * The namespace the load-shedding metric filter publishes to, one per endpoint (a metric filter
   * on a plain-text pattern cannot set dimensions).
   */
  public static String shedNamespace(String endpointName) {
    return "SpeechScale/" + endpointName;
  }

  /** The metric counting the container's {@code queue_saturated} refusals. */
  public static final String QUEUE_SATURATED_METRIC = "QueueSaturatedRejections";

  /**
   * The metric counting the container's deliberate HTTP 503s on {@code /invocations}
   * (queue_saturated, deadline_shed, shutting_down, not_ready): the 5xx that are not errors.
   */
  public static final String DELIBERATE_503_METRIC = "DeliberateHttp503";

  /** The scalable dimension of a variant's instance count. */
  public static final String SCALABLE_DIMENSION = "sagemaker:variant:DesiredInstanceCount";

  /** The model-cache stack of one model. */
  public static String modelCacheStack(String modelName) {
    return "speech-model-cache-" + modelName;
  }

  /** The endpoint stack of one model. */
  public static String endpointStack(String modelName) {
    return "speech-endpoint-" + modelName;
  }

  /** The log group SageMaker writes an endpoint's container output to. */
  public static String logGroup(String endpointName) {
    return "/aws/sagemaker/Endpoints/" + endpointName;
  }

  public static String targetTrackingPolicy(String endpointName) {
    return endpointName + "-target-tracking";
  }

  public static String scaleInPolicy(String endpointName) {
    return endpointName + "-scale-in-step";
  }

  public static String scaleInAlarm(String endpointName) {
    return endpointName + "-scale-in";
  }

  /** A scheduled floor's scheduled action: {@code floor-HHMM} (the local platform's name too). */
  public static String scheduledFloor(dev.speechscale.artifacts.ScheduledFloorEntry f) {
    return "floor-" + f.at().replace(":", "");
  }

  /** A scheduled floor's schedule: daily {@code cron(M H * * ? *)}, UTC. */
  public static String floorCron(dev.speechscale.artifacts.ScheduledFloorEntry f) {
    int s = f.secondOfDay();
    return "cron(" + (s % 3600 / 60) + " " + (s / 3600) + " * * ? *)";
  }

  public static String firstChunkAlarm(String endpointName) {
    return endpointName + "-first-chunk-latency-p95";
  }

  public static String serverErrorAlarm(String endpointName) {
    return endpointName + "-server-errors";
  }

  public static String loadSheddingAlarm(String endpointName) {
    return endpointName + "-load-shedding";
  }

  public static String dashboard(String endpointName) {
    return endpointName + "-scaling";
  }
}
