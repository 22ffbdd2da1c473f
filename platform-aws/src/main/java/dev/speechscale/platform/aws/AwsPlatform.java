package dev.speechscale.platform.aws;

import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.InstanceLog;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.SuspendedState;
import dev.speechscale.platform.Transport;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalableTargetsRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalingPoliciesRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalingPoliciesResponse;
import software.amazon.awssdk.services.applicationautoscaling.model.RegisterScalableTargetRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.ScalableTarget;
import software.amazon.awssdk.services.applicationautoscaling.model.ServiceNamespace;
import software.amazon.awssdk.services.sagemaker.model.ContainerDefinition;
import software.amazon.awssdk.services.sagemaker.model.DeployedImage;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointConfigRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointConfigResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeModelRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeModelResponse;
import software.amazon.awssdk.services.sagemaker.model.DesiredWeightAndCapacity;
import software.amazon.awssdk.services.sagemaker.model.ProductionVariant;
import software.amazon.awssdk.services.sagemaker.model.ProductionVariantSummary;
import software.amazon.awssdk.services.sagemaker.model.UpdateEndpointWeightsAndCapacitiesRequest;

/**
 * The platform SPI over SageMaker, Application Auto Scaling, CloudWatch and CloudWatch Logs (AWS
 * SDK v2), each behind one of the narrow interfaces in {@link AwsApis}.
 *
 * <ul>
 *   <li>{@link #describe}: DescribeEndpoint (status, desired and current instances of the
 *       endpoint's variant) and DescribeEndpointConfig (its instance type).
 *   <li>{@link #fingerprint}: the image digest SageMaker resolved (DescribeEndpoint's deployed
 *       images), the instance type (DescribeEndpointConfig) and the container environment
 *       (DescribeModel) without {@code MAX_QUEUE_DEPTH} and {@code CONTAINER_START_EPOCH}.
 *   <li>{@link #scalingState}: the scalable target with its suspended flags, every policy on the
 *       variant (orphans included) and the states of the alarms those policies use.
 *   <li>{@link #setSuspended}: RegisterScalableTarget with only SuspendedState.
 *   <li>{@link #setDesiredInstances}: UpdateEndpointWeightsAndCapacities.
 *   <li>{@link #instanceLogs}: the log streams of {@code /aws/sagemaker/Endpoints/<name>} whose
 *       first event is at or after {@code since}, with their events.
 *   <li>{@link #metric}: GetMetricData on {@code AWS/SageMaker} with the endpoint's {@code
 *       EndpointName} and {@code VariantName}. Values are as CloudWatch reports them:
 *       FirstChunkLatency is in <em>microseconds</em>.
 *   <li>{@link #invoker}: response-stream only (SageMaker exposes the container through the runtime
 *       API), with retries off.
 * </ul>
 *
 * Errors become {@link PlatformException} reasons: NotFound, MissingCredentials, Throttled,
 * QuotaExceeded, InvalidRequest, Unavailable. Nothing here retries a mutation.
 */
public final class AwsPlatform implements Platform {
  private static final ServiceNamespace SAGEMAKER = ServiceNamespace.SAGEMAKER;

  private final AwsApis.Clients clients;
  private final Settings settings;
  private final Clock clock;
  private final Map<String, String> variants = new ConcurrentHashMap<>();

  /**
   * How to reach AWS.
   *
   * @param region the region, e.g. {@code us-east-1}
   * @param profile a named credentials profile, or {@code null} for the default chain
   * @param runtimeEndpoint the SageMaker Runtime endpoint; {@code null} for the region's own (a
   *     local stand-in for tests and the local runtime API)
   * @param requestTimeout how long one invocation may take
   */
  public record Settings(
      String region, String profile, URI runtimeEndpoint, Duration requestTimeout) {
    public Settings {
      if (region == null || region.isBlank()) {
        throw new PlatformException(
            new PlatformException.Reason.InvalidRequest(
                "no AWS region: pass --region or set AWS_REGION (e.g. us-east-1)"));
      }
      requestTimeout = requestTimeout == null ? Duration.ofSeconds(60) : requestTimeout;
    }

    /** The runtime endpoint invocations go to. */
    public URI runtime() {
      return runtimeEndpoint != null
          ? runtimeEndpoint
          : URI.create("https://runtime.sagemaker." + region + ".amazonaws.com");
    }
  }

  /**
   * A platform over given clients (tests pass fakes).
   *
   * @param clients the four service interfaces
   * @param settings region, profile, runtime endpoint, request timeout
   * @param clock the wall clock descriptions are stamped with
   */
  public AwsPlatform(AwsApis.Clients clients, Settings settings, Clock clock) {
    this.clients = clients;
    this.settings = settings;
    this.clock = clock;
  }

  /** A platform over real SDK clients: the profile's credentials, or the default chain. */
  public static AwsPlatform create(Settings settings) {
    var credentials =
        settings.profile() == null
            ? DefaultCredentialsProvider.builder().build()
            : ProfileCredentialsProvider.create(settings.profile());
    return new AwsPlatform(
        AwsApis.sdk(Region.of(settings.region()), credentials), settings, Clock.systemUTC());
  }

  @Override
  public String name() {
    return "aws";
  }

  @Override
  public EndpointDescription describe(String endpoint) {
    DescribeEndpointResponse ep = describeEndpoint(endpoint);
    ProductionVariantSummary v = variant(ep);
    ProductionVariant configured = configuredVariant(ep, v.variantName());
    return new EndpointDescription(
        endpoint,
        status(ep.endpointStatusAsString()),
        orZero(v.desiredInstanceCount()),
        orZero(v.currentInstanceCount()),
        configured.instanceTypeAsString(),
        clock.instant());
  }

  @Override
  public Fingerprint fingerprint(String endpoint) {
    DescribeEndpointResponse ep = describeEndpoint(endpoint);
    ProductionVariantSummary v = variant(ep);
    ProductionVariant configured = configuredVariant(ep, v.variantName());
    DescribeModelResponse model =
        call(
            "DescribeModel",
            "model " + configured.modelName(),
            () ->
                clients
                    .sageMaker()
                    .describeModel(
                        DescribeModelRequest.builder().modelName(configured.modelName()).build()));
    ContainerDefinition container =
        model.primaryContainer() != null
            ? model.primaryContainer()
            : model.hasContainers() && !model.containers().isEmpty()
                ? model.containers().getFirst()
                : null;
    Map<String, String> env = new LinkedHashMap<>();
    if (container != null && container.hasEnvironment()) {
      env.putAll(container.environment());
    }
    AwsEndpointSpec.PLATFORM_VARIABLES.forEach(env::remove);
    return new Fingerprint(configured.instanceTypeAsString(), digest(v, container), env);
  }

  @Override
  public ScalingState scalingState(String endpoint) {
    String resourceId = resourceId(endpoint);
    Optional<ScalableTarget> target = target(resourceId);
    List<ScalingPolicy> policies = new ArrayList<>();
    List<String> alarmNames = new ArrayList<>();
    String token = null;
    do {
      String next = token;
      DescribeScalingPoliciesResponse page =
          call(
              "DescribeScalingPolicies",
              resourceId,
              () ->
                  clients
                      .autoScaling()
                      .describeScalingPolicies(
                          DescribeScalingPoliciesRequest.builder()
                              .serviceNamespace(SAGEMAKER)
                              .resourceId(resourceId)
                              .nextToken(next)
                              .build()));
      for (var p : page.scalingPolicies()) {
        switch (p.policyTypeAsString()) {
          case "TargetTrackingScaling" ->
              policies.add(
                  ScalingMapper.targetTracking(
                      p.policyName(), p.targetTrackingScalingPolicyConfiguration()));
          case "StepScaling" ->
              policies.add(
                  ScalingMapper.stepScaling(
                      p.policyName(), p.stepScalingPolicyConfiguration(), p.alarms()));
          default -> {
            // Predictive scaling does not apply to SageMaker variants; nothing to report.
          }
        }
        p.alarms().forEach(a -> alarmNames.add(a.alarmName()));
      }
      token = page.nextToken();
    } while (token != null);
    var alarms = new AlarmReader(clients.cloudWatch()).read(alarmNames);
    return new ScalingState(
        target.map(t ->
            new ScalingState.ScalableTarget(
                resourceId,
                orZero(t.minCapacity()),
                orZero(t.maxCapacity()),
                ScalingMapper.suspended(t.suspendedState()))),
        policies,
        alarms,
        target.isPresent()
            ? null
            : "no scalable target is registered for "
                + resourceId
                + ": the endpoint was deployed without a matching plan, so it runs at its"
                + " initial instance count");
  }

  @Override
  public void setSuspended(String endpoint, SuspendedState state) {
    String resourceId = resourceId(endpoint);
    if (target(resourceId).isEmpty()) {
      throw new PlatformException(
          new PlatformException.Reason.NotFound(
              "scalable target " + resourceId,
              "nothing to suspend: the endpoint has no autoscaling (deploy it behind a matching"
                  + " plan to get one)"));
    }
    RegisterScalableTargetRequest request =
        RegisterScalableTargetRequest.builder()
            .serviceNamespace(SAGEMAKER)
            .resourceId(resourceId)
            .scalableDimension(AwsNames.SCALABLE_DIMENSION)
            .suspendedState(s ->
                s.dynamicScalingInSuspended(state.dynamicScalingIn())
                    .dynamicScalingOutSuspended(state.dynamicScalingOut())
                    .scheduledScalingSuspended(state.scheduledScaling()))
            .build();
    call(
        "RegisterScalableTarget",
        resourceId,
        () -> {
          clients.autoScaling().registerScalableTarget(request);
          return null;
        });
  }

  @Override
  public void setDesiredInstances(String endpoint, int count) {
    if (count < 0) {
      throw new PlatformException(
          new PlatformException.Reason.InvalidRequest(
              "desired instance count (" + count + ") must be 0 or more"));
    }
    String variant = variantName(endpoint);
    DesiredWeightAndCapacity capacity =
        DesiredWeightAndCapacity.builder().variantName(variant).desiredInstanceCount(count).build();
    try {
      clients
          .sageMaker()
          .updateEndpointWeightsAndCapacities(
              UpdateEndpointWeightsAndCapacitiesRequest.builder()
                  .endpointName(endpoint)
                  .desiredWeightsAndCapacities(capacity)
                  .build());
    } catch (RuntimeException e) {
      throw AwsErrors.map("UpdateEndpointWeightsAndCapacities", "endpoint " + endpoint, count, e);
    }
  }

  @Override
  public List<InstanceLog> instanceLogs(String endpoint, Instant since) {
    return new InstanceLogReader(clients.logs()).read(AwsNames.logGroup(endpoint), since);
  }

  @Override
  public MetricSeries metric(String endpoint, MetricQuery query) {
    return new MetricReader(clients.cloudWatch()).read(endpoint, variantName(endpoint), query);
  }

  @Override
  public Invoker invoker(String endpoint, Transport transport) {
    if (transport != Transport.RESPONSE_STREAM) {
      throw new PlatformException(
          new PlatformException.Reason.InvalidRequest(
              "transport "
                  + transport.label()
                  + " is not available on --platform aws: SageMaker exposes the container only"
                  + " through the runtime API; use --transport response-stream"));
    }
    Map<String, String> options =
        settings.profile() == null ? Map.of() : Map.of("profile", settings.profile());
    return new ResponseStreamInvoker(
        new InvokerTarget(
            Transport.RESPONSE_STREAM,
            endpoint,
            settings.runtime(),
            settings.region(),
            settings.requestTimeout(),
            NanoClock.SYSTEM,
            options));
  }

  @Override
  public void close() {
    clients.close();
  }

  private DescribeEndpointResponse describeEndpoint(String endpoint) {
    return call(
        "DescribeEndpoint",
        "endpoint " + endpoint,
        () ->
            clients
                .sageMaker()
                .describeEndpoint(
                    DescribeEndpointRequest.builder().endpointName(endpoint).build()));
  }

  private ProductionVariantSummary variant(DescribeEndpointResponse ep) {
    if (!ep.hasProductionVariants() || ep.productionVariants().isEmpty()) {
      throw new PlatformException(
          new PlatformException.Reason.Unavailable(
              "endpoint "
                  + ep.endpointName()
                  + " reports no production variant yet (status "
                  + ep.endpointStatusAsString()
                  + "); wait until it is InService"));
    }
    ProductionVariantSummary v = ep.productionVariants().getFirst();
    variants.put(ep.endpointName(), v.variantName());
    return v;
  }

  private ProductionVariant configuredVariant(DescribeEndpointResponse ep, String variantName) {
    DescribeEndpointConfigResponse config =
        call(
            "DescribeEndpointConfig",
            "endpoint config " + ep.endpointConfigName(),
            () ->
                clients
                    .sageMaker()
                    .describeEndpointConfig(
                        DescribeEndpointConfigRequest.builder()
                            .endpointConfigName(ep.endpointConfigName())
                            .build()));
    return config.productionVariants().stream()
        .filter(p -> p.variantName().equals(variantName))
        .findFirst()
        .orElseThrow(() ->
            new PlatformException(
                new PlatformException.Reason.NotFound(
                    "variant " + variantName + " in endpoint config " + ep.endpointConfigName(),
                    "the endpoint is mid-update; run the command again when it is InService")));
  }

  /** The variant's name, remembered after the first description of the endpoint. */
  private String variantName(String endpoint) {
    String known = variants.get(endpoint);
    return known != null ? known : variant(describeEndpoint(endpoint)).variantName();
  }

  private String resourceId(String endpoint) {
    return "endpoint/" + endpoint + "/variant/" + variantName(endpoint);
  }

  private Optional<ScalableTarget> target(String resourceId) {
    return call(
            "DescribeScalableTargets",
            resourceId,
            () ->
                clients
                    .autoScaling()
                    .describeScalableTargets(
                        DescribeScalableTargetsRequest.builder()
                            .serviceNamespace(SAGEMAKER)
                            .resourceIds(resourceId)
                            .scalableDimension(AwsNames.SCALABLE_DIMENSION)
                            .build()))
        .scalableTargets()
        .stream()
        .findFirst();
  }

  /** The sha256 digest (hex) SageMaker resolved the image to, else the one the image names. */
  private static String digest(ProductionVariantSummary v, ContainerDefinition container) {
    List<String> candidates = new ArrayList<>();
    if (v.hasDeployedImages()) {
      for (DeployedImage i : v.deployedImages()) {
        candidates.add(i.resolvedImage());
        candidates.add(i.specifiedImage());
      }
    }
    if (container != null) {
      candidates.add(container.image());
    }
    for (String image : candidates) {
      if (image != null && image.contains("@sha256:")) {
        return image.substring(image.indexOf("@sha256:") + "@sha256:".length());
      }
    }
    return null;
  }

  private static EndpointStatus status(String s) {
    return switch (s == null ? "" : s) {
      case "Creating" -> EndpointStatus.CREATING;
      case "InService" -> EndpointStatus.IN_SERVICE;
      case "Updating" -> EndpointStatus.UPDATING;
      case "SystemUpdating" -> EndpointStatus.SYSTEM_UPDATING;
      case "RollingBack" -> EndpointStatus.ROLLING_BACK;
      case "OutOfService" -> EndpointStatus.OUT_OF_SERVICE;
      case "Deleting" -> EndpointStatus.DELETING;
      default -> EndpointStatus.FAILED;
    };
  }

  static <T> T call(String operation, String subject, Supplier<T> call) {
    try {
      return call.get();
    } catch (PlatformException e) {
      throw e;
    } catch (RuntimeException e) {
      throw AwsErrors.map(operation, subject, 0, e);
    }
  }

  private static int orZero(Integer i) {
    return i == null ? 0 : i;
  }
}
