package dev.speechscale.platform;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;

/**
 * Where an endpoint runs. Every method may throw {@link PlatformException}; none retries a mutation
 * on its own.
 */
public interface Platform extends AutoCloseable {

  /** {@code local} or {@code aws}. */
  String name();

  /** Status and instance counts. */
  EndpointDescription describe(String endpoint);

  /** What is deployed: instance type, image digest, container environment. */
  Fingerprint fingerprint(String endpoint);

  /** Scalable target, policies, alarms and suspended flags, as deployed now. */
  ScalingState scalingState(String endpoint);

  /**
   * Sets the suspended flags of the endpoint's scalable target (AWS semantics: a suspended
   * direction ignores alarms; desired capacity set directly still applies).
   *
   * @throws PlatformException when the endpoint has no scalable target
   */
  void setSuspended(String endpoint, SuspendedState state);

  /**
   * Creates or replaces the scheduled action {@code action.name()} on the endpoint's scalable
   * target (AWS {@code PutScheduledAction}); the default refuses, for platforms that take their
   * scheduled actions from the deployment only.
   *
   * @throws PlatformException when the endpoint has no scalable target or the action is refused
   */
  default void putScheduledAction(String endpoint, ScheduledAction action) {
    throw scheduledByDeployment(endpoint, "with scheduled_floors");
  }

  /**
   * Deletes the scheduled action {@code name} (AWS {@code DeleteScheduledAction}); the default
   * refuses, as {@link #putScheduledAction} does.
   *
   * @throws PlatformException when there is no such action
   */
  default void deleteScheduledAction(String endpoint, String name) {
    throw scheduledByDeployment(endpoint, "without the floor");
  }

  /** The refusal of a platform that takes its scheduled actions from the deployment only. */
  private static PlatformException scheduledByDeployment(String endpoint, String redeploy) {
    return new PlatformException(
        new PlatformException.Reason.InvalidRequest(
            "this platform takes scheduled actions from the deployment only; redeploy "
                + endpoint
                + " "
                + redeploy));
  }

  /**
   * Why the endpoint's last operation failed, as DescribeEndpoint's {@code FailureReason} says it
   * (e.g. a scale-out the Region had no capacity for), or empty; the default knows none.
   */
  default java.util.Optional<String> failureReason(String endpoint) {
    return java.util.Optional.empty();
  }

  /** Sets the desired instance count directly, bypassing the policies. */
  void setDesiredInstances(String endpoint, int count);

  /** Startup logs of every instance whose log appeared at or after {@code since}. */
  List<InstanceLog> instanceLogs(String endpoint, Instant since);

  /**
   * The finest period this platform's metrics resolve: what a measurement window is queried at (1 s
   * locally, 10 s for high-resolution CloudWatch metrics).
   */
  Duration finestMetricPeriod();

  /**
   * How the endpoint's platform behaves in time: the polling interval that respects its control
   * plane's rate limits, how late its datapoints become readable, how long an instance may take to
   * start. The chain derives every wait it has not measured from these, never from a constant.
   * Reads no remote state on AWS; locally it reads the endpoint's record.
   */
  default Physics physics(String endpoint) {
    return Physics.DEFAULTS;
  }

  /** One metric's datapoints. */
  MetricSeries metric(String endpoint, MetricQuery query);

  /**
   * The container's admission bound ({@code MAX_QUEUE_DEPTH}): 0 when unbounded, empty when the
   * platform cannot tell. qmax refuses a bounded queue: Q_max would measure the gate, not the
   * instance.
   */
  default OptionalInt containerQueueBound(String endpoint) {
    return OptionalInt.empty();
  }

  /**
   * Scaling resources (scalable targets, policies, alarms) left by endpoints that no longer exist,
   * across everything this platform can see: the account and region on AWS, the state directory
   * locally. Read-only. {@code drift} with no model (or {@code --orphans}) reports them as errors:
   * nothing deploys or destroys them any more, and a new endpoint under the old name inherits them.
   *
   * @throws PlatformException when this platform cannot list them
   */
  default List<OrphanedScaling> orphanedScaling() {
    throw new PlatformException(
        new PlatformException.Reason.Unavailable(
            "the " + name() + " platform cannot scan for orphaned scaling resources"));
  }

  /**
   * The CPU limit the endpoint's in-service instances run under, read back from where it is
   * enforced. Empty when the platform gives each instance a whole machine of its type (a SageMaker
   * instance), so there is nothing below the instance type to enforce.
   */
  default java.util.Optional<CpuLimit> cpuLimit(String endpoint) {
    return java.util.Optional.empty();
  }

  /**
   * Starts measuring the speed of the hosts the endpoint's instances run on; the caller closes it.
   * Empty when the platform gives each instance a host of its own whose speed the measurement need
   * not track (a SageMaker instance), or when it cannot tell which host an instance runs on.
   */
  default java.util.Optional<HostSpeedProbe> startHostSpeedProbe(String endpoint) {
    return java.util.Optional.empty();
  }

  /**
   * Several metric series of one endpoint, one per query in the order given. A platform whose
   * metric API takes many queries per call (CloudWatch's GetMetricData: up to 500 sharing one time
   * range) answers in as few calls as it can; the default asks {@link #metric} once per query.
   */
  default List<MetricSeries> metrics(String endpoint, List<MetricQuery> queries) {
    return queries.stream().map(q -> metric(endpoint, q)).toList();
  }

  /**
   * Whether this platform's own control-plane calls already retry a throttled request (with
   * backoff, up to a ceiling the implementation states), so that {@link RetryingPlatform} must not
   * retry on top: one owner for retries, or the attempts multiply (10 × 3 = 30 calls for one
   * throttled request once did). False by default: the wrapper is then the owner.
   */
  default boolean retriesThrottling() {
    return false;
  }

  /** A client for one transport; the caller closes it. */
  Invoker invoker(String endpoint, Transport transport);

  /** Releases clients; never stops the endpoint. */
  @Override
  void close();
}
