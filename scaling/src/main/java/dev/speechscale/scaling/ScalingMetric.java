package dev.speechscale.scaling;

/**
 * The one definition of the metrics a scaling policy can track. A new metric is a new constant here
 * plus a source for it in every {@link Datapoints} implementation (the local metric store, the
 * simulator, CloudWatch).
 */
public enum ScalingMetric {
  /**
   * In-flight requests (queued + executing + still streaming) per in-service instance, sampled
   * every second; SageMaker's {@code ConcurrentRequestsPerModel}. What a SpeechScale plan tracks.
   */
  CONCURRENT_REQUESTS_PER_MODEL("ConcurrentRequestsPerModel"),
  /**
   * Requests routed per in-service instance in a period (statistic Sum); SageMaker's predefined
   * {@code SageMakerVariantInvocationsPerInstance}, the policy a user typically copies.
   */
  INVOCATIONS_PER_INSTANCE("InvocationsPerInstance"),
  /** Busy share of an instance, 0..100 %, as a CPU-style utilisation metric. */
  CPU_UTILIZATION("CPUUtilization");

  private final String awsName;

  ScalingMetric(String awsName) {
    this.awsName = awsName;
  }

  /** The CloudWatch metric name, e.g. {@code ConcurrentRequestsPerModel}. */
  public String awsName() {
    return awsName;
  }
}
