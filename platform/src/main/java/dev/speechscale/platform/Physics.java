package dev.speechscale.platform;

import java.time.Duration;
import java.util.Objects;

/**
 * How an endpoint's platform behaves in time, the figures the chain derives its waits from where it
 * has nothing measured: how often it may poll the control plane, how late a metric datapoint
 * becomes readable, and how long a new instance may take to come into service before the platform
 * itself gives up on it. SageMaker differs from the local platform on all three (CloudWatch
 * publishes minutes late, the control plane throttles, an instance provisions for minutes); the
 * local platform reproduces them with {@code local.aws_physics} (config/README.md).
 *
 * @param minPollInterval the shortest pause between two polls of one control-plane call, so a
 *     poller stays under the service's rate limit
 * @param metricPublicationDelay how long after it was sampled a datapoint may take to become
 *     readable (a bound)
 * @param instanceStartBound the longest a new instance may take from requested to in service before
 *     the platform fails it (a bound)
 * @param requestTimeout how long one invocation may take before the platform's invoker gives up on
 *     it, so how long a load driver told to stop may still be finishing its workers' requests
 */
public record Physics(
    Duration minPollInterval,
    Duration metricPublicationDelay,
    Duration instanceStartBound,
    Duration requestTimeout) {
  /** The invokers' request timeout when a platform names none (both platforms' default). */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);

  /**
   * A platform that says nothing about itself: today's 200 ms polling, datapoints readable at once,
   * and SageMaker's default 600 s container health check as the start-up bound.
   */
  public static final Physics DEFAULTS =
      new Physics(Duration.ofMillis(200), Duration.ZERO, Duration.ofSeconds(600));

  /** Physics whose invoker has the default {@link #DEFAULT_REQUEST_TIMEOUT}. */
  public Physics(
      Duration minPollInterval, Duration metricPublicationDelay, Duration instanceStartBound) {
    this(minPollInterval, metricPublicationDelay, instanceStartBound, DEFAULT_REQUEST_TIMEOUT);
  }

  public Physics {
    Objects.requireNonNull(minPollInterval, "minPollInterval");
    Objects.requireNonNull(metricPublicationDelay, "metricPublicationDelay");
    Objects.requireNonNull(instanceStartBound, "instanceStartBound");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    if (minPollInterval.isNegative() || minPollInterval.isZero()) {
      throw new IllegalArgumentException(
          "minPollInterval (" + minPollInterval + ") must be positive or a poller spins");
    }
    if (metricPublicationDelay.isNegative()) {
      throw new IllegalArgumentException(
          "metricPublicationDelay (" + metricPublicationDelay + ") must not be negative");
    }
    if (instanceStartBound.isNegative() || instanceStartBound.isZero()) {
      throw new IllegalArgumentException(
          "instanceStartBound (" + instanceStartBound + ") must be positive");
    }
    if (requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException(
          "requestTimeout (" + requestTimeout + ") must be positive or no request can finish");
    }
  }
}
