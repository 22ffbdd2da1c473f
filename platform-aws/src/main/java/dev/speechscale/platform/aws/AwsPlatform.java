package dev.speechscale.platform.aws;

import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.InstanceLog;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.OrphanedScaling;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.ScheduledAction;
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
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalableTargetsRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalingPoliciesRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalingPoliciesResponse;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScheduledActionsRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScheduledActionsResponse;
import software.amazon.awssdk.services.applicationautoscaling.model.RegisterScalableTargetRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.ScalableTarget;
import software.amazon.awssdk.services.applicationautoscaling.model.ServiceNamespace;
import software.amazon.awssdk.services.sagemaker.model.ContainerDefinition;
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
 * QuotaExceeded, InvalidRequest, Unavailable. Nothing here retries a mutation. A little over the
 * house size because it is the whole SPI in one place; the per-service reading lives in {@link
 * EndpointReader}, {@link AlarmReader}, {@link InstanceLogReader} and {@link MetricReader}.
 */
public final class AwsPlatform implements Platform {
  private static final ServiceNamespace SAGEMAKER = ServiceNamespace.SAGEMAKER;

  private final AwsApis.Clients clients;
  private final Settings settings;
  private final Clock clock;
  private final EndpointReader endpoints;

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
      String region,
      @Nullable String profile,
      @Nullable URI runtimeEndpoint,
      Duration requestTimeout) {
    public Settings {
      requireRegion(region, profile);
      requestTimeout = requestTimeout == null ? DEFAULT_REQUEST_TIMEOUT : requestTimeout;
    }

    private static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);

    /** Settings with the default request timeout, from values a user may have left out. */
    public static Settings of(
        @Nullable String region, @Nullable String profile, @Nullable URI runtimeEndpoint) {
      return new Settings(
          requireRegion(region, profile), profile, runtimeEndpoint, DEFAULT_REQUEST_TIMEOUT);
    }

    private static String requireRegion(@Nullable String region, @Nullable String profile) {
      if (region == null || region.isBlank()) {
        throw new PlatformException(
            new PlatformException.Reason.InvalidRequest(
                AwsAccess.noRegion(profile, System.getenv())));
      }
      return region;
    }

    /**
     * Where InvokeEndpointWithBidirectionalStream goes: the given runtime endpoint (a local
     * stand-in serves every operation on one port), else the region's HTTP/2 runtime endpoint on
     * 8443, as the {@code sagemakerruntimehttp2} client's endpoint rules resolve it.
     */
    public URI bidiRuntime() {
      return runtimeEndpoint != null
          ? runtimeEndpoint
          : URI.create("https://runtime.sagemaker." + region + ".amazonaws.com:8443");
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
    this.endpoints = new EndpointReader(clients.sageMaker());
  }

  /**
   * A platform over real SDK clients: the profile's credentials, or the SDK's default chain, from
   * the shared config and credentials files ({@code AWS_CONFIG_FILE}, {@code
   * AWS_SHARED_CREDENTIALS_FILE}, else {@code ~/.aws}); see {@link AwsAccess}.
   */
  public static AwsPlatform create(Settings settings) {
    return create(settings, null);
  }

  /**
   * As {@link #create(Settings)}, with every control-plane client sent to {@code endpointUrl} when
   * it is not null (the CLI's {@code --endpoint-url}: the local platform's AWS-shaped control
   * plane). Without a profile, a loopback {@code endpointUrl} is signed with placeholder keys, as
   * {@link ResponseStreamInvoker} signs for a loopback runtime: the local plane checks the
   * signature's scope, not its key.
   */
  public static AwsPlatform create(Settings settings, @Nullable URI endpointUrl) {
    AwsCredentialsProvider credentials =
        settings.profile() == null && endpointUrl != null && isLoopback(endpointUrl)
            ? StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"))
            : AwsAccess.credentials(
                settings.profile(), System.getenv(), ProfileFile::defaultProfileFile);
    return new AwsPlatform(
        AwsApis.sdk(Region.of(settings.region()), credentials, endpointUrl),
        settings,
        Clock.systemUTC());
  }

  static boolean isLoopback(URI uri) {
    String host = uri.getHost();
    return host != null
        && (host.equals("localhost") || host.equals("127.0.0.1") || host.equals("[::1]"));
  }

  @Override
  public String name() {
    return "aws";
  }

  /**
   * True: the SDK clients are the one owner of retries. A throttled (or 5xx, or I/O-failed)
   * control-plane request is sent at most {@value AwsApis#CONTROL_PLANE_ATTEMPTS} times in all,
   * with the SDK's adaptive backoff, and then fails; the chain's {@code RetryingPlatform} counts it
   * but does not send it again.
   */
  @Override
  public boolean retriesThrottling() {
    return true;
  }

  /** ConcurrentRequestsPerModel is a high-resolution metric: 10 s is its finest period. */
  @Override
  public Duration finestMetricPeriod() {
    return Duration.ofSeconds(10);
  }

  /**
   * SageMaker's physics, the same for every endpoint: poll a Describe* call at most once a second
   * (SageMaker lists its per-API request rates only in the account's Service Quotas, not in its
   * documentation; one call a second per poller keeps the chain's two concurrent pollers well under
   * the 5 calls/s it plans for, with the SDK's adaptive retry for the rest); CloudWatch makes a
   * high-resolution datapoint readable within about two minutes of its period; an instance may take
   * up to 20 minutes to come into service (provisioning, the model download and the 600 s container
   * start-up health check this project deploys) before SageMaker fails it. A request may take the
   * invokers' own timeout ({@link Settings#requestTimeout()}), which the chain's drains wait for.
   */
  @Override
  public dev.speechscale.platform.Physics physics(String endpoint) {
    return new dev.speechscale.platform.Physics(
        Duration.ofSeconds(1),
        Duration.ofMinutes(2),
        Duration.ofMinutes(20),
        settings.requestTimeout());
  }

  @Override
  public EndpointDescription describe(String endpoint) {
    DescribeEndpointResponse ep = endpoints.describeEndpoint(endpoint);
    ProductionVariantSummary v = endpoints.variant(ep);
    ProductionVariant configured = endpoints.configuredVariant(ep, v.variantName());
    return new EndpointDescription(
        endpoint,
        EndpointReader.status(ep.endpointStatusAsString()),
        orZero(v.desiredInstanceCount()),
        orZero(v.currentInstanceCount()),
        configured.instanceTypeAsString(),
        clock.instant());
  }

  @Override
  public Fingerprint fingerprint(String endpoint) {
    Deployed d = deployed(endpoint);
    Map<String, String> env = new LinkedHashMap<>(d.environment());
    AwsEndpointSpec.PLATFORM_VARIABLES.forEach(env::remove);
    return new Fingerprint(d.instanceType(), d.digest(), env);
  }

  /** The container's {@code MAX_QUEUE_DEPTH} from DescribeModel (0 when unset: no bound). */
  @Override
  public OptionalInt containerQueueBound(String endpoint) {
    String v = deployed(endpoint).environment().get("MAX_QUEUE_DEPTH");
    if (v == null || v.isBlank()) {
      return OptionalInt.of(0);
    }
    try {
      return OptionalInt.of(Integer.parseInt(v.strip()));
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }

  /** What DescribeEndpoint → DescribeEndpointConfig → DescribeModel say is running. */
  private record Deployed(
      String instanceType, @Nullable String digest, Map<String, String> environment) {}

  private Deployed deployed(String endpoint) {
    DescribeEndpointResponse ep = endpoints.describeEndpoint(endpoint);
    ProductionVariantSummary v = endpoints.variant(ep);
    ProductionVariant configured = endpoints.configuredVariant(ep, v.variantName());
    DescribeModelResponse model =
        AwsErrors.call(
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
    return new Deployed(
        configured.instanceTypeAsString(), EndpointReader.digest(v, container), env);
  }

  @Override
  public ScalingState scalingState(String endpoint) {
    String resourceId = resourceId(endpoint);
    Optional<ScalableTarget> target = target(resourceId);
    List<ScalingPolicy> policies = new ArrayList<>();
    List<String> alarmNames = new ArrayList<>();
    AwsErrors.eachPage(
        "DescribeScalingPolicies",
        resourceId,
        token ->
            clients
                .autoScaling()
                .describeScalingPolicies(
                    DescribeScalingPoliciesRequest.builder()
                        .serviceNamespace(SAGEMAKER)
                        .resourceId(resourceId)
                        .nextToken(token)
                        .build()),
        DescribeScalingPoliciesResponse::nextToken,
        page -> {
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
        });
    var alarms = new AlarmReader(clients.cloudWatch()).read(alarmNames);
    return new ScalingState(
        target.map(t ->
            new ScalingState.ScalableTarget(
                resourceId,
                orZero(t.minCapacity()),
                orZero(t.maxCapacity()),
                ScalingMapper.suspended(t.suspendedState()),
                scheduledActions(resourceId))),
        policies,
        alarms,
        target.isPresent()
            ? null
            : "no scalable target is registered for "
                + resourceId
                + ": the endpoint was deployed without a matching plan, so it runs at its"
                + " initial instance count");
  }

  /** Every SageMaker target, policy and endpoint alarm in the region whose endpoint is gone. */
  @Override
  public List<OrphanedScaling> orphanedScaling() {
    return new OrphanScan(clients).scan();
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
    AwsErrors.call(
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
    String variant = endpoints.variantName(endpoint);
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
    return new MetricReader(clients.cloudWatch())
        .read(endpoint, endpoints.variantName(endpoint), query);
  }

  /** GetMetricData with every query sharing a time range in one call (up to 500 per call). */
  @Override
  public List<MetricSeries> metrics(String endpoint, List<MetricQuery> queries) {
    return new MetricReader(clients.cloudWatch())
        .readAll(endpoint, endpoints.variantName(endpoint), queries);
  }

  @Override
  public Invoker invoker(String endpoint, Transport transport) {
    Map<String, String> options =
        settings.profile() == null ? Map.of() : Map.of("profile", settings.profile());
    return switch (transport) {
      case RESPONSE_STREAM ->
          new ResponseStreamInvoker(
              new InvokerTarget(
                  Transport.RESPONSE_STREAM,
                  endpoint,
                  settings.runtime(),
                  settings.region(),
                  settings.requestTimeout(),
                  NanoClock.SYSTEM,
                  options));
      case BIDI ->
          new BidiStreamInvoker(
              new InvokerTarget(
                  Transport.BIDI,
                  endpoint,
                  settings.bidiRuntime(),
                  settings.region(),
                  settings.requestTimeout(),
                  NanoClock.SYSTEM,
                  options));
      case HTTP_STREAM ->
          throw new PlatformException(
              new PlatformException.Reason.InvalidRequest(
                  "transport "
                      + transport.label()
                      + " is not available on --platform aws: SageMaker exposes the container"
                      + " only through the runtime API; use --transport response-stream or bidi"));
    };
  }

  @Override
  public void close() {
    clients.close();
  }

  private String resourceId(String endpoint) {
    return "endpoint/" + endpoint + "/variant/" + endpoints.variantName(endpoint);
  }

  private Optional<ScalableTarget> target(String resourceId) {
    return AwsErrors.call(
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

  /** The target's scheduled actions, every page (DescribeScheduledActions). */
  private List<ScheduledAction> scheduledActions(String resourceId) {
    List<ScheduledAction> out = new ArrayList<>();
    AwsErrors.eachPage(
        "DescribeScheduledActions",
        resourceId,
        token ->
            clients
                .autoScaling()
                .describeScheduledActions(
                    DescribeScheduledActionsRequest.builder()
                        .serviceNamespace(SAGEMAKER)
                        .resourceId(resourceId)
                        .scalableDimension(AwsNames.SCALABLE_DIMENSION)
                        .nextToken(token)
                        .build()),
        DescribeScheduledActionsResponse::nextToken,
        page -> page.scheduledActions().forEach(a -> out.add(ScalingMapper.scheduledAction(a))));
    return out;
  }

  private static int orZero(Integer i) {
    return i == null ? 0 : i;
  }
}
