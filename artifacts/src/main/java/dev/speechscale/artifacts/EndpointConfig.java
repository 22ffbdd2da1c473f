package dev.speechscale.artifacts;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One model's endpoint definition, what the published {@code ModelEndpointConfig} holds: the same
 * record deploys on the local platform and on SageMaker. Validated by {@link EndpointConfigFile}.
 *
 * @param modelName the model's name; the endpoint is {@code speech-<model>}
 * @param engine {@code flite}, {@code espeak} or {@code kokoro}
 * @param engineSettings speech-server settings (segmentation, model paths, ...), passed to the
 *     container as environment variables ({@link #engineEnvironment()})
 * @param instanceType {@code local.<n>cpu} or {@code local.<m>mcpu} (millicpus) locally, {@code
 *     ml.*} on SageMaker
 * @param minInstances fewest instances
 * @param maxInstances most instances
 * @param scalingTargetValue target tracking value in ConcurrentRequestsPerModel units, or {@code
 *     null} to take it from the plan
 * @param scaleInThreshold scale-in alarm threshold (Average), or {@code null} to take it from the
 *     plan
 * @param scaleOutCooldownS scale-out cooldown, or {@code null} to take it from the plan
 * @param scaleInCooldownS scale-in cooldown, or {@code null} to take it from the plan
 * @param scaleInAlarm the step scale-in alarm ({@code scale_in_alarm}: {@code maximum_10s}, or
 *     {@code average_60s} for the pair plans deployed before issue 35), or {@code null} to take it
 *     from the plan (a plan writes {@link ScaleInAlarmChoice#DEFAULT} unless its simulation chose
 *     otherwise; a plan written before the field deployed {@code average_60s})
 * @param ttfabSloMs the p95 TTFAB SLO
 * @param queueMaxDepth the container's admission bound (0 = unbounded, as qmax needs)
 * @param containerEnv extra container environment (part of the fingerprint)
 * @param local local-platform settings
 * @param aws SageMaker settings, or {@code null}
 * @param scheduledFloors scheduled minimum-capacity floors ({@code scheduled_floors}, UTC), or
 *     {@code null} to take them from the plan; an empty list deploys none whatever the plan says
 * @param scalingMetric what target tracking tracks ({@code scaling_metric}, {@link
 *     ScalingMetricChoice}), or {@code null} to take it from the plan (a plan without the field
 *     tracks ConcurrentRequestsPerModel)
 */
public record EndpointConfig(
    String modelName,
    String engine,
    Map<String, String> engineSettings,
    String instanceType,
    int minInstances,
    int maxInstances,
    @Nullable Double scalingTargetValue,
    @Nullable Double scaleInThreshold,
    @Nullable Integer scaleOutCooldownS,
    @Nullable Integer scaleInCooldownS,
    @Nullable ScaleInAlarmChoice scaleInAlarm,
    int ttfabSloMs,
    int queueMaxDepth,
    Map<String, String> containerEnv,
    Local local,
    @Nullable Aws aws,
    @Nullable List<ScheduledFloorEntry> scheduledFloors,
    @Nullable ScalingMetricChoice scalingMetric) {

  public EndpointConfig {
    Objects.requireNonNull(modelName, "model_name");
    scheduledFloors = scheduledFloors == null ? null : ScheduledFloorEntry.sorted(scheduledFloors);
    engineSettings = sorted(engineSettings);
    containerEnv = sorted(containerEnv);
    local = local == null ? Local.DEFAULTS : local;
  }

  /** This config with {@code scaling_metric} set to {@code metric}. */
  public EndpointConfig withScalingMetric(@Nullable ScalingMetricChoice metric) {
    return withScaling(
        scalingTargetValue,
        scaleInThreshold,
        scaleOutCooldownS,
        scaleInCooldownS,
        scaleInAlarm,
        scheduledFloors,
        metric);
  }

  /** The metric this config's target tracking tracks: its own, else the default. */
  public ScalingMetricChoice scalingMetricOrDefault() {
    return scalingMetric != null ? scalingMetric : ScalingMetricChoice.DEFAULT;
  }

  /** The scheduled floors this config deploys: its own, else none. */
  public List<ScheduledFloorEntry> scheduledFloorsOrNone() {
    return scheduledFloors != null ? scheduledFloors : List.of();
  }

  /** The scale-in alarm this config deploys: its own, else {@link ScaleInAlarmChoice#DEFAULT}. */
  public ScaleInAlarmChoice scaleInAlarmOrDefault() {
    return scaleInAlarm != null ? scaleInAlarm : ScaleInAlarmChoice.DEFAULT;
  }

  /** {@code speech-<model>}. */
  public String endpointName() {
    return "speech-" + modelName;
  }

  /**
   * CPUs per local instance: {@code local.2cpu} → 2, {@code local.500mcpu} → 0.5; 0 for non-local
   * types.
   */
  public double localCpus() {
    if (instanceType.matches("local\\.[0-9]+cpu")) {
      return Integer.parseInt(instanceType.substring(6, instanceType.length() - 3));
    }
    if (instanceType.matches("local\\.[0-9]+mcpu")) {
      return Integer.parseInt(instanceType.substring(6, instanceType.length() - 4)) / 1000.0;
    }
    return 0;
  }

  /**
   * The container environment that chooses and configures the engine, the same on every platform:
   * {@code ENGINE} plus each {@code engine_settings} key as its upper-case name ({@code
   * kokoro_model} → {@code KOKORO_MODEL}), which is the variable speech-server reads for that
   * setting.
   */
  public Map<String, String> engineEnvironment() {
    Map<String, String> env = new TreeMap<>();
    env.put(ENGINE_VARIABLE, engine);
    engineSettings.forEach((k, v) -> env.put(settingVariable(k), v));
    return java.util.Collections.unmodifiableMap(env);
  }

  /**
   * The {@code engine_settings} keys speech-server knows; each is also a variable of its own
   * ({@link #settingVariable}). Platforms refuse any other key rather than pass it unread.
   */
  public static final java.util.Set<String> SERVER_SETTINGS =
      java.util.Set.of(
          "segmentation",
          "engine_threads",
          "kokoro_model",
          "kokoro_config",
          "kokoro_voices",
          "max_text_chars",
          "warmup_text",
          "max_request_age_s",
          "drain_timeout_s",
          "max_buffered_bytes",
          "max_body_bytes",
          "model_dir");

  /** The variable that carries the engine's name. */
  public static final String ENGINE_VARIABLE = "ENGINE";

  /**
   * The container variable of an {@code engine_settings} key: {@code kokoro_model} → KOKORO_MODEL.
   */
  static String settingVariable(String key) {
    return key.toUpperCase(java.util.Locale.ROOT);
  }

  /** This config with the scaling values taken from a plan where the config left them out. */
  public EndpointConfig withPlanValues(PlanArtifact plan) {
    return withScaling(
        scalingTargetValue != null ? scalingTargetValue : plan.scalingTargetValue(),
        scaleInThreshold != null ? scaleInThreshold : plan.scaleInThreshold(),
        scaleOutCooldownS != null ? scaleOutCooldownS : Integer.valueOf(plan.scaleOutCooldownS()),
        scaleInCooldownS != null ? scaleInCooldownS : Integer.valueOf(plan.scaleInCooldownS()),
        scaleInAlarm != null ? scaleInAlarm : plan.scaleInAlarmChoice(),
        scheduledFloors != null ? scheduledFloors : plan.scheduledFloors(),
        scalingMetric != null ? scalingMetric : plan.scalingMetricChoice());
  }

  /** This config with the scaling values given, the rest kept. */
  private EndpointConfig withScaling(
      @Nullable Double target,
      @Nullable Double threshold,
      @Nullable Integer outCooldownS,
      @Nullable Integer inCooldownS,
      @Nullable ScaleInAlarmChoice alarm,
      @Nullable List<ScheduledFloorEntry> floors,
      @Nullable ScalingMetricChoice metric) {
    return new EndpointConfig(
        modelName,
        engine,
        engineSettings,
        instanceType,
        minInstances,
        maxInstances,
        target,
        threshold,
        outCooldownS,
        inCooldownS,
        alarm,
        ttfabSloMs,
        queueMaxDepth,
        containerEnv,
        local,
        aws,
        floors,
        metric);
  }

  private static Map<String, String> sorted(Map<String, String> in) {
    return in == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(in));
  }

  /**
   * Local-platform settings.
   *
   * @param timeScale multiplies every alarm period and evaluation wait of the local autoscaler (1.0
   *     = AWS's 10 s / 60 s periods); tests and demos compress time with a smaller value
   * @param healthCheckTimeoutS how long a new instance may take to pass /ping
   * @param awsPhysics SageMaker's physics reproduced locally ({@link AwsPhysics#OFF} by default)
   */
  public record Local(double timeScale, int healthCheckTimeoutS, AwsPhysics awsPhysics) {
    public static final Local DEFAULTS = new Local(1.0, 600, AwsPhysics.OFF);

    public Local {
      awsPhysics = awsPhysics == null ? AwsPhysics.OFF : awsPhysics;
    }

    /** Settings without AWS physics. */
    public Local(double timeScale, int healthCheckTimeoutS) {
      this(timeScale, healthCheckTimeoutS, AwsPhysics.OFF);
    }
  }

  /**
   * SageMaker's physics reproduced on the local platform, each off at 0 (the default): what the
   * chain must survive on AWS, made reproducible here.
   *
   * @param metricDelayS a datapoint becomes readable (metric queries and the autoscaler's alarms)
   *     only this many seconds after it was sampled, as CloudWatch publishes late
   * @param controlCallsPerSecond the control API answers calls above this rate with AWS's
   *     throttling error ({@code ThrottlingException}, "Rate exceeded"); 0 = unlimited
   * @param instanceStartS a new instance is not in service until at least this many seconds after
   *     it was requested, as a SageMaker instance takes minutes to provision
   * @param instanceStartJitterS each new instance's start takes up to this many seconds more than
   *     {@code instanceStartS}, drawn uniformly per instance (reproducibly: seeded by its number);
   *     0 = every start takes the same time. AWS publishes no figure for the spread
   * @param capacityLimit the instances of this type the Region can provision for the account: a
   *     scale-out past it fails as SageMaker's does for want of capacity
   *     (InsufficientInstanceCapacity: the instances are not added, desired falls back to what
   *     runs, DescribeEndpoint's FailureReason says why); 0 = no limit
   * @param concurrencyWhenIdle whether a second with nothing in flight and nothing invoked has a
   *     ConcurrentRequestsPerModel sample of 0 ({@link IdleConcurrency#ZERO}, the default) or none
   *     ({@link IdleConcurrency#MISSING}: a period of such seconds has no datapoint, and the alarms
   *     treat it as deployed). SageMaker documents its invocation metrics as coming "from calls to
   *     InvokeEndpoint" (InvocationsPerInstance: "1/numberOfInstances is sent as the value on each
   *     request"; SageMaker Developer Guide, "Amazon SageMaker AI metrics in Amazon CloudWatch")
   *     but says nothing of ConcurrentRequestsPerModel on an idle variant, so this is a setting,
   *     not AWS's behaviour
   */
  public record AwsPhysics(
      int metricDelayS,
      double controlCallsPerSecond,
      int instanceStartS,
      int instanceStartJitterS,
      int capacityLimit,
      IdleConcurrency concurrencyWhenIdle) {
    public static final AwsPhysics OFF = new AwsPhysics(0, 0, 0);

    /** Physics without start jitter or a capacity limit. */
    public AwsPhysics(int metricDelayS, double controlCallsPerSecond, int instanceStartS) {
      this(metricDelayS, controlCallsPerSecond, instanceStartS, 0, 0);
    }

    /** Physics whose idle seconds sample a concurrency of 0. */
    public AwsPhysics(
        int metricDelayS,
        double controlCallsPerSecond,
        int instanceStartS,
        int instanceStartJitterS,
        int capacityLimit) {
      this(
          metricDelayS,
          controlCallsPerSecond,
          instanceStartS,
          instanceStartJitterS,
          capacityLimit,
          IdleConcurrency.ZERO);
    }

    public AwsPhysics {
      concurrencyWhenIdle =
          concurrencyWhenIdle == null ? IdleConcurrency.ZERO : concurrencyWhenIdle;
      if (instanceStartJitterS < 0 || capacityLimit < 0) {
        throw new IllegalArgumentException(
            "aws_physics instance_start_jitter_s ("
                + instanceStartJitterS
                + ") and capacity_limit ("
                + capacityLimit
                + ") must not be negative; 0 turns one off");
      }
      if (metricDelayS < 0 || controlCallsPerSecond < 0 || instanceStartS < 0) {
        throw new IllegalArgumentException(
            "aws_physics values must not be negative (metric_delay_s "
                + metricDelayS
                + ", control_calls_per_s "
                + controlCallsPerSecond
                + ", instance_start_s "
                + instanceStartS
                + "); 0 turns one off");
      }
    }

    /** Whether any setting is on. */
    public boolean on() {
      return metricDelayS > 0
          || controlCallsPerSecond > 0
          || instanceStartS > 0
          || instanceStartJitterS > 0
          || capacityLimit > 0
          || concurrencyWhenIdle == IdleConcurrency.MISSING;
    }
  }

  /** What the local metric store samples for ConcurrentRequestsPerModel in an idle second. */
  public enum IdleConcurrency {
    /** A sample of 0 (the default). */
    ZERO,
    /** No sample: a period of idle seconds has no datapoint. */
    MISSING;

    /** {@code zero} or {@code missing} (case-insensitive). */
    public static IdleConcurrency of(String text) {
      for (IdleConcurrency v : values()) {
        if (v.name().equalsIgnoreCase(text.strip())) {
          return v;
        }
      }
      throw new IllegalArgumentException(
          "'" + text + "' is not zero or missing; leave it out for zero (a sample of 0)");
    }
  }

  /**
   * SageMaker settings.
   *
   * @param imageUri the container image in ECR
   * @param modelRepository the Hugging Face repository the weights come from
   * @param modelRevision the pinned revision (a commit hash)
   * @param quotaMaxInstances the account's instance quota for this type; max_instances must fit
   * @param variantName the production variant's name
   * @param gpuImageUri the GPU variant of the image ({@code bin/image build --gpu}), deployed
   *     instead of {@code imageUri} on GPU instance types (ml.g*, ml.p*); {@code null} = imageUri
   *     everywhere
   */
  public record Aws(
      @Nullable String imageUri,
      @Nullable String modelRepository,
      @Nullable String modelRevision,
      @Nullable Integer quotaMaxInstances,
      String variantName,
      @Nullable String gpuImageUri) {
    /** Settings without a GPU image. */
    public Aws(
        @Nullable String imageUri,
        @Nullable String modelRepository,
        @Nullable String modelRevision,
        @Nullable Integer quotaMaxInstances,
        String variantName) {
      this(imageUri, modelRepository, modelRevision, quotaMaxInstances, variantName, null);
    }
  }
}
