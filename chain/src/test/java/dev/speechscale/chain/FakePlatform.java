package dev.speechscale.chain;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.CpuLimit;
import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.InstanceLog;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.Statistic;
import dev.speechscale.platform.SuspendedState;
import dev.speechscale.platform.Transport;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * An in-memory {@link Platform} holding one endpoint. {@link #deployedBehind} deploys it exactly as
 * a plan says, in the local platform's shapes (policy and alarm names, a tracking alarm on the
 * Maximum and a step scale-in alarm on the Average over 60 s); every deployed value is then a plain
 * field a test changes to make one kind of drift. {@link #scalingState} is rebuilt from the fields
 * on every call. The chain's pure logic drives no load, so there is no invoker unless a test sets
 * {@link #invoker}.
 */
final class FakePlatform implements Platform {
  final String endpoint;

  EndpointStatus status = EndpointStatus.IN_SERVICE;
  int desiredInstances;
  int currentInstances;
  String instanceType;
  String imageDigest;
  Map<String, String> containerEnv;

  /** False: no scalable target, no policies, no alarms, and {@link #reason} says why. */
  boolean scalingAttached = true;

  String reason;
  int minCapacity;
  int maxCapacity;
  List<dev.speechscale.platform.ScheduledAction> scheduledActions = List.of();
  SuspendedState suspended = SuspendedState.NONE;

  boolean trackingPolicy = true;
  String trackingMetric = "ConcurrentRequestsPerModel";
  Statistic trackingStatistic = Statistic.MAXIMUM;
  int trackingPeriodS = 10;
  double targetValue;
  int scaleOutCooldownS;
  boolean disableScaleIn = true;
  boolean trackingAlarm = true;
  int trackingEvaluationPeriods = 3;
  Alarm.AlarmState trackingAlarmState = Alarm.AlarmState.OK;

  boolean stepPolicy = true;
  int scaleInCooldownS;
  boolean scaleInAlarm = true;
  double scaleInThreshold;

  /** Null: an alarm the platform reports without a metric name (metric math on AWS). */
  String scaleInMetric = "ConcurrentRequestsPerModel";

  /** Null: a statistic the platform cannot name (an extended statistic such as p99 on AWS). */
  Statistic scaleInStatistic = Statistic.AVERAGE;

  int scaleInPeriodS = 60;
  int scaleInEvaluationPeriods = 3;
  Alarm.AlarmState scaleInAlarmState = Alarm.AlarmState.OK;

  /** As the stacks deploy it; {@code null}: the alarm states none (CloudWatch's missing). */
  @org.jspecify.annotations.Nullable String scaleInTreatMissingData = "notBreaching";

  /** Policies beyond the two a plan deploys (orphans). */
  final List<ScalingPolicy> extraPolicies = new ArrayList<>();

  OptionalInt queueBound = OptionalInt.empty();

  /** What {@link #cpuLimit} reads back; empty like a platform of whole instances. */
  Optional<CpuLimit> cpuLimit = Optional.empty();

  /** What {@link #physics} answers. */
  dev.speechscale.platform.Physics physics = dev.speechscale.platform.Physics.DEFAULTS;

  /** ConcurrentRequestsPerModel datapoints; {@link #metric} answers those inside the range. */
  final List<MetricSeries.Datapoint> concurrency = new ArrayList<>();

  /** Every metric query, in order. */
  final List<MetricQuery> metricQueries = new ArrayList<>();

  private FakePlatform(String endpoint) {
    this.endpoint = endpoint;
  }

  /** The endpoint of {@code plan}, in service at its minimum, with the plan's scaling attached. */
  static FakePlatform deployedBehind(PlanArtifact plan) {
    FakePlatform p = new FakePlatform(plan.endpoint());
    p.desiredInstances = plan.minInstances();
    p.currentInstances = plan.minInstances();
    p.instanceType = plan.deployedConfig().instanceType();
    p.imageDigest = plan.deployedConfig().imageDigest();
    p.containerEnv = plan.deployedConfig().containerEnv();
    p.reason = "scaling attached behind plan-" + plan.model() + ".json";
    p.minCapacity = plan.minInstances();
    p.maxCapacity = plan.maxInstances();
    p.targetValue = plan.scalingTargetValue();
    p.scaleOutCooldownS = plan.scaleOutCooldownS();
    p.scaleInCooldownS = plan.scaleInCooldownS();
    p.scaleInThreshold = plan.scaleInThreshold();
    p.queueBound = OptionalInt.of(plan.queueMaxDepth());
    return p;
  }

  /** Detaches scaling, as a deployment without a plan has it. */
  FakePlatform withoutScaling(String why) {
    scalingAttached = false;
    reason = why;
    return this;
  }

  String trackingName() {
    return endpoint + "-target-tracking";
  }

  String stepName() {
    return endpoint + "-step-scale-in";
  }

  String trackingAlarmName() {
    return "TargetTracking-" + endpoint + "-AlarmHigh";
  }

  String scaleInAlarmName() {
    return endpoint + "-scale-in";
  }

  @Override
  public String name() {
    return "fake";
  }

  @Override
  public java.time.Duration finestMetricPeriod() {
    return java.time.Duration.ofSeconds(
        10); // what ServerConcurrency used for any non-local platform
  }

  @Override
  public EndpointDescription describe(String endpoint) {
    known(endpoint);
    return new EndpointDescription(
        endpoint, status, desiredInstances, currentInstances, instanceType, Instant.EPOCH);
  }

  @Override
  public Fingerprint fingerprint(String endpoint) {
    known(endpoint);
    return new Fingerprint(instanceType, imageDigest, containerEnv);
  }

  @Override
  public ScalingState scalingState(String endpoint) {
    known(endpoint);
    if (!scalingAttached) {
      return ScalingState.none(reason);
    }
    List<ScalingPolicy> policies = new ArrayList<>();
    List<Alarm> alarms = new ArrayList<>();
    if (trackingPolicy) {
      policies.add(
          new ScalingPolicy.TargetTracking(
              trackingName(),
              trackingMetric,
              trackingStatistic,
              trackingPeriodS,
              targetValue,
              scaleOutCooldownS,
              0,
              disableScaleIn));
      if (trackingAlarm) {
        alarms.add(
            new Alarm(
                trackingAlarmName(),
                trackingMetric,
                trackingStatistic,
                trackingPeriodS,
                trackingEvaluationPeriods,
                targetValue,
                Alarm.Comparison.GREATER_THAN_THRESHOLD,
                trackingAlarmState,
                List.of(trackingName()),
                null));
      }
    }
    if (stepPolicy) {
      policies.add(
          new ScalingPolicy.StepScaling(
              stepName(),
              "ChangeInCapacity",
              List.of(new ScalingPolicy.Step(null, 0.0, -1)),
              scaleInCooldownS,
              List.of(scaleInAlarmName())));
      if (scaleInAlarm) {
        alarms.add(
            new Alarm(
                scaleInAlarmName(),
                scaleInMetric,
                scaleInStatistic,
                scaleInPeriodS,
                scaleInEvaluationPeriods,
                scaleInThreshold,
                Alarm.Comparison.LESS_THAN_OR_EQUAL_TO_THRESHOLD,
                scaleInAlarmState,
                List.of(stepName()),
                scaleInTreatMissingData));
      }
    }
    policies.addAll(extraPolicies);
    return new ScalingState(
        Optional.of(
            new ScalingState.ScalableTarget(
                "endpoint/" + endpoint + "/variant/AllTraffic",
                minCapacity,
                maxCapacity,
                suspended,
                scheduledActions)),
        policies,
        alarms,
        reason);
  }

  @Override
  public void setSuspended(String endpoint, SuspendedState state) {
    known(endpoint);
    if (!scalingAttached) {
      throw new PlatformException(
          new PlatformException.Reason.NotFound("scalable target of " + endpoint, reason));
    }
    suspended = state;
  }

  @Override
  public void setDesiredInstances(String endpoint, int count) {
    known(endpoint);
    desiredInstances = count;
  }

  @Override
  public List<InstanceLog> instanceLogs(String endpoint, Instant since) {
    known(endpoint);
    return List.of();
  }

  @Override
  public dev.speechscale.platform.Physics physics(String endpoint) {
    return physics;
  }

  @Override
  public MetricSeries metric(String endpoint, MetricQuery query) {
    known(endpoint);
    metricQueries.add(query);
    List<MetricSeries.Datapoint> in =
        query.metric() == MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL
            ? concurrency.stream()
                .filter(d -> !d.at().isBefore(query.start()) && d.at().isBefore(query.end()))
                .toList()
            : List.of();
    return new MetricSeries(query, in);
  }

  @Override
  public OptionalInt containerQueueBound(String endpoint) {
    known(endpoint);
    return queueBound;
  }

  @Override
  public Optional<CpuLimit> cpuLimit(String endpoint) {
    known(endpoint);
    return cpuLimit;
  }

  /** The invoker load goes through; {@code null}: the fake drives no load. */
  Invoker invoker;

  @Override
  public Invoker invoker(String endpoint, Transport transport) {
    if (invoker == null) {
      throw new UnsupportedOperationException("the fake platform drives no load");
    }
    return invoker;
  }

  @Override
  public void close() {}

  private void known(String name) {
    if (!endpoint.equals(name)) {
      throw new PlatformException(
          new PlatformException.Reason.NotFound("endpoint " + name, "the fake holds " + endpoint));
    }
  }
}
