package dev.speechscale.platform.aws;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The state behind {@link WireAws}, in memory, and the operations the provider calls, answered in
 * the documented shapes. An endpoint is deployed as the endpoint stack deploys it behind a matching
 * plan ({@link #deploy}): model, endpoint config, endpoint, scalable target, the target-tracking
 * and step scale-in policies with their alarms, and a log group. Its instances are real
 * speech-server processes ({@link WireInstance}); an update is {@code Updating} until the new
 * instances printed their ready marker, as SageMaker waits for the container's health check.
 *
 * <p>Metrics are what the runtime saw: ConcurrentRequestsPerModel is sampled at each invocation's
 * start and end, FirstChunkLatency (microseconds) at its first chunk, Invocations and
 * Invocation4XX/5XXErrors counted per invocation; GetMetricData aggregates them per period.
 *
 * <p>Every listing pages: {@link #PAGE} items (policies, alarms, log streams, datapoints) or {@link
 * #EVENTS_PAGE} log events at a time, so the provider's pagination runs on every call. Mutable
 * state is guarded by this object's monitor.
 *
 * <p>Well over the house size: it is the state of four services and the eleven operations over it,
 * kept in one class so that one monitor guards all of it (an update changes the endpoint, its
 * instances and what DescribeEndpoint answers together). Each operation is one short method.
 */
final class WireServices implements AutoCloseable {
  static final int PAGE = 1;
  static final int EVENTS_PAGE = 4;
  static final String HIGH_ALARM_SUFFIX = "-AlarmHigh-6f1c2d3e-4a50-4172-8394-a5b6c7d8e9f0";

  private final Clock clock;
  private final JsonMapper json;
  private final Map<String, Endpoint> endpoints = new LinkedHashMap<>();
  private final Map<String, ObjectNode> alarms = new LinkedHashMap<>();
  private final List<Sample> samples = new CopyOnWriteArrayList<>();
  private int instancesStarted;

  /** One metric observation. */
  record Sample(String endpoint, String metric, Instant at, double value) {}

  /** One log event. */
  record Event(long timestampMs, String message, long ingestionMs) {}

  /** A deployed endpoint, its scaling and its instances. */
  private static final class Endpoint {
    final AwsEndpointSpec spec;
    final Map<String, String> environment;
    String status = "Creating";
    int desired;
    final List<WireInstance> instances = new ArrayList<>();
    final List<WireInstance> inService = new ArrayList<>();
    boolean targetRegistered = true;
    boolean in;
    boolean out;
    boolean scheduled;
    final List<ObjectNode> policies = new ArrayList<>();
    final Map<String, List<Event>> streams = new LinkedHashMap<>();
    int inFlight;
    int next;

    Endpoint(AwsEndpointSpec spec) {
      this.spec = spec;
      this.environment = spec.containerEnvironment();
    }

    String arn() {
      return "arn:aws:sagemaker:"
          + WireAws.REGION
          + ":"
          + WireAws.ACCOUNT
          + ":endpoint/"
          + spec.endpointName().toLowerCase(Locale.ROOT);
    }
  }

  WireServices(Clock clock, JsonMapper json) {
    this.clock = clock;
    this.json = json;
  }

  /**
   * Deploys {@code spec} as the endpoint stack does behind a plan with these values, and starts its
   * {@code min_instances} instances.
   */
  synchronized void deploy(
      AwsEndpointSpec spec,
      double targetValue,
      double scaleInThreshold,
      int scaleOutCooldownS,
      int scaleInCooldownS) {
    Endpoint e = new Endpoint(spec);
    endpoints.put(spec.endpointName(), e);
    String name = spec.endpointName();
    String resourceId = spec.resourceId();
    String highAlarm = "TargetTracking-" + resourceId + HIGH_ALARM_SUFFIX;
    ObjectNode tracking = policy(e, AwsNames.targetTrackingPolicy(name), "TargetTrackingScaling");
    ObjectNode tt = tracking.putObject("TargetTrackingScalingPolicyConfiguration");
    tt.put("TargetValue", targetValue);
    tt.putObject("PredefinedMetricSpecification")
        .put("PredefinedMetricType", "SageMakerVariantConcurrentRequestsPerModelHighResolution");
    tt.put("ScaleOutCooldown", scaleOutCooldownS);
    tt.put("DisableScaleIn", true);
    tracking
        .putArray("Alarms")
        .addObject()
        .put("AlarmName", highAlarm)
        .put("AlarmARN", alarmArn(highAlarm));
    ObjectNode step = policy(e, AwsNames.scaleInPolicy(name), "StepScaling");
    ObjectNode sc = step.putObject("StepScalingPolicyConfiguration");
    sc.put("AdjustmentType", "ChangeInCapacity");
    sc.put("Cooldown", scaleInCooldownS);
    sc.put("MetricAggregationType", "Average");
    sc.putArray("StepAdjustments")
        .addObject()
        .put("MetricIntervalUpperBound", 0.0)
        .put("ScalingAdjustment", -1);
    String scaleIn = AwsNames.scaleInAlarm(name);
    step.putArray("Alarms")
        .addObject()
        .put("AlarmName", scaleIn)
        .put("AlarmARN", alarmArn(scaleIn));

    ObjectNode high = json.createObjectNode();
    high.put("AlarmName", highAlarm);
    high.put("EvaluationPeriods", 3);
    high.put("Threshold", targetValue);
    high.put("ComparisonOperator", "GreaterThanThreshold");
    high.put("StateValue", "INSUFFICIENT_DATA");
    high.put("Action", policyArn(resourceId, AwsNames.targetTrackingPolicy(name)));
    high.put("MetricsStat", "Maximum");
    high.put("MetricsPeriod", 10);
    high.put("Endpoint", name);
    alarms.put(highAlarm, high);
    ObjectNode low = json.createObjectNode();
    low.put("AlarmName", scaleIn);
    low.put("MetricName", "ConcurrentRequestsPerModel");
    low.put("Statistic", "Average");
    low.put("Period", 60);
    low.put("EvaluationPeriods", 3);
    low.put("Threshold", scaleInThreshold);
    low.put("ComparisonOperator", "LessThanOrEqualToThreshold");
    low.put("TreatMissingData", "notBreaching");
    low.put("StateValue", "OK");
    low.put("Action", policyArn(resourceId, AwsNames.scaleInPolicy(name)));
    low.put("Endpoint", name);
    alarms.put(scaleIn, low);

    e.desired = spec.config().minInstances();
    launch(e, e.desired);
  }

  private ObjectNode policy(Endpoint e, String name, String type) {
    ObjectNode p = json.createObjectNode();
    p.put("PolicyARN", policyArn(e.spec.resourceId(), name));
    p.put("PolicyName", name);
    p.put("ServiceNamespace", "sagemaker");
    p.put("ResourceId", e.spec.resourceId());
    p.put("ScalableDimension", AwsNames.SCALABLE_DIMENSION);
    p.put("PolicyType", type);
    p.put("CreationTime", epochSeconds(clock.instant()));
    e.policies.add(p);
    return p;
  }

  private static String policyArn(String resourceId, String name) {
    return "arn:aws:autoscaling:"
        + WireAws.REGION
        + ":"
        + WireAws.ACCOUNT
        + ":scalingPolicy:1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b:resource/sagemaker/"
        + resourceId
        + ":policyName/"
        + name;
  }

  private static String alarmArn(String name) {
    return "arn:aws:cloudwatch:" + WireAws.REGION + ":" + WireAws.ACCOUNT + ":alarm:" + name;
  }

  /** The endpoint's scalable target disappears (as if deregistered); its policies stay. */
  synchronized void deregisterTarget(String endpoint) {
    endpoint(endpoint).targetRegistered = false;
  }

  synchronized void registerTarget(String endpoint) {
    endpoint(endpoint).targetRegistered = true;
  }

  /** Blocks until the endpoint is InService with {@code count} instances in service. */
  synchronized void awaitInService(String endpoint, int count, Duration timeout) {
    Endpoint e = endpoint(endpoint);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!(e.status.equals("InService") && e.inService.size() == count)) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new IllegalStateException(
            endpoint
                + " did not reach "
                + count
                + " in-service instances within "
                + timeout
                + " (status "
                + e.status
                + ", "
                + e.inService.size()
                + " in service of "
                + e.instances.size()
                + ")");
      }
      try {
        wait(Math.max(1, left / 1_000_000));
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", ex);
      }
    }
  }

  /** Samples recorded so far. */
  List<Sample> samples() {
    return List.copyOf(samples);
  }

  private Endpoint endpoint(String name) {
    Endpoint e = endpoints.get(name);
    if (e == null) {
      throw new WireAws.WireError(
          400,
          "ValidationException",
          "Could not find endpoint \"arn:aws:sagemaker:"
              + WireAws.REGION
              + ":"
              + WireAws.ACCOUNT
              + ":endpoint/"
              + name.toLowerCase(Locale.ROOT)
              + "\".");
    }
    return e;
  }

  private void launch(Endpoint e, int count) {
    for (int i = 0; i < count; i++) {
      instancesStarted++;
      String id = String.format(Locale.ROOT, "i-0%016x", 0x5eedL * 1_000_003L + instancesStarted);
      String stream = e.spec.variantName() + "/" + id;
      List<Event> events = new CopyOnWriteArrayList<>();
      e.streams.put(stream, events);
      WireInstance instance =
          WireInstance.launch(
              id,
              e.environment,
              clock,
              (at, line) -> events.add(new Event(at.toEpochMilli(), line, at.toEpochMilli())));
      e.instances.add(instance);
      instance.inService().whenComplete((uri, failure) -> settle(e, instance, failure == null));
    }
  }

  private synchronized void settle(Endpoint e, WireInstance instance, boolean healthy) {
    if (healthy && e.instances.contains(instance)) {
      e.inService.add(instance);
    }
    if (!healthy) {
      e.status = "Failed";
    } else if (e.inService.size() == e.desired && e.instances.size() == e.desired) {
      e.status = "InService";
    }
    notifyAll();
  }

  @Override
  public synchronized void close() {
    for (Endpoint e : endpoints.values()) {
      e.instances.forEach(WireInstance::close);
      e.instances.clear();
      e.inService.clear();
    }
  }

  // ---------------------------------------------------------------- JSON 1.1 services

  Object json(String service, String operation, JsonNode in) {
    return switch (service + "." + operation) {
      case "SageMaker.DescribeEndpoint" -> describeEndpoint(in);
      case "SageMaker.DescribeEndpointConfig" -> describeEndpointConfig(in);
      case "SageMaker.DescribeModel" -> describeModel(in);
      case "SageMaker.UpdateEndpointWeightsAndCapacities" -> updateCapacity(in);
      case "ApplicationAutoScaling.DescribeScalableTargets" -> describeScalableTargets(in);
      case "ApplicationAutoScaling.DescribeScalingPolicies" -> describeScalingPolicies(in);
      case "ApplicationAutoScaling.DescribeScheduledActions" -> describeScheduledActions(in);
      case "ApplicationAutoScaling.RegisterScalableTarget" -> registerScalableTarget(in);
      case "CloudWatchLogs.DescribeLogStreams" -> describeLogStreams(in);
      case "CloudWatchLogs.GetLogEvents" -> getLogEvents(in);
      default ->
          throw new WireAws.WireError(
              400, "UnknownOperationException", service + " has no operation " + operation);
    };
  }

  private static String required(JsonNode in, String field) {
    JsonNode v = in.get(field);
    if (v == null || v.isNull() || v.asString().isEmpty()) {
      throw new WireAws.WireError(
          400,
          "ValidationException",
          "1 validation error detected: Value null at '"
              + Character.toLowerCase(field.charAt(0))
              + field.substring(1)
              + "' failed to satisfy constraint: Member must not be null");
    }
    return v.asString();
  }

  private synchronized ObjectNode describeEndpoint(JsonNode in) {
    Endpoint e = endpoint(required(in, "EndpointName"));
    ObjectNode out = json.createObjectNode();
    out.put("EndpointName", e.spec.endpointName());
    out.put("EndpointArn", e.arn());
    out.put("EndpointConfigName", configName(e));
    out.put("EndpointStatus", e.status);
    out.put("CreationTime", epochSeconds(clock.instant().minusSeconds(3600)));
    out.put("LastModifiedTime", epochSeconds(clock.instant()));
    ObjectNode v = out.putArray("ProductionVariants").addObject();
    v.put("VariantName", e.spec.variantName());
    ObjectNode image = v.putArray("DeployedImages").addObject();
    image.put("SpecifiedImage", e.spec.imageUri());
    image.put("ResolvedImage", e.spec.imageUri());
    image.put("ResolutionTime", epochSeconds(clock.instant().minusSeconds(3600)));
    v.put("CurrentWeight", 1.0);
    v.put("DesiredWeight", 1.0);
    v.put("CurrentInstanceCount", e.inService.size());
    v.put("DesiredInstanceCount", e.desired);
    return out;
  }

  private static String configName(Endpoint e) {
    return e.spec.endpointName() + "-config";
  }

  private static String modelName(Endpoint e) {
    return e.spec.endpointName() + "-model";
  }

  private synchronized ObjectNode describeEndpointConfig(JsonNode in) {
    String name = required(in, "EndpointConfigName");
    Endpoint e =
        endpoints.values().stream()
            .filter(x -> configName(x).equals(name))
            .findFirst()
            .orElseThrow(() ->
                new WireAws.WireError(
                    400,
                    "ValidationException",
                    "Could not find endpoint configuration \"" + name + "\"."));
    ObjectNode out = json.createObjectNode();
    out.put("EndpointConfigName", name);
    out.put(
        "EndpointConfigArn",
        "arn:aws:sagemaker:" + WireAws.REGION + ":" + WireAws.ACCOUNT + ":endpoint-config/" + name);
    ObjectNode v = out.putArray("ProductionVariants").addObject();
    v.put("VariantName", e.spec.variantName());
    v.put("ModelName", modelName(e));
    v.put("InitialInstanceCount", e.spec.config().minInstances());
    v.put("InstanceType", e.spec.config().instanceType());
    v.put("InitialVariantWeight", 1.0);
    v.putObject("RoutingConfig").put("RoutingStrategy", "LEAST_OUTSTANDING_REQUESTS");
    v.put("ContainerStartupHealthCheckTimeoutInSeconds", 600);
    out.put("CreationTime", epochSeconds(clock.instant().minusSeconds(3600)));
    return out;
  }

  private synchronized ObjectNode describeModel(JsonNode in) {
    String name = required(in, "ModelName");
    Endpoint e =
        endpoints.values().stream()
            .filter(x -> modelName(x).equals(name))
            .findFirst()
            .orElseThrow(() ->
                new WireAws.WireError(
                    400, "ValidationException", "Could not find model \"" + name + "\"."));
    ObjectNode out = json.createObjectNode();
    out.put("ModelName", name);
    out.put(
        "ModelArn",
        "arn:aws:sagemaker:" + WireAws.REGION + ":" + WireAws.ACCOUNT + ":model/" + name);
    ObjectNode c = out.putObject("PrimaryContainer");
    c.put("Image", e.spec.imageUri());
    c.put("Mode", "SingleModel");
    ObjectNode env = c.putObject("Environment");
    e.environment.forEach(env::put);
    out.put(
        "ExecutionRoleArn",
        "arn:aws:iam::" + WireAws.ACCOUNT + ":role/speech-foundation-ExecutionRole");
    out.put("CreationTime", epochSeconds(clock.instant().minusSeconds(3600)));
    return out;
  }

  private synchronized ObjectNode updateCapacity(JsonNode in) {
    Endpoint e = endpoint(required(in, "EndpointName"));
    JsonNode wanted = in.path("DesiredWeightsAndCapacities").path(0);
    if (!wanted.path("VariantName").asString().equals(e.spec.variantName())) {
      throw new WireAws.WireError(
          400,
          "ValidationException",
          "The variant name(s) \""
              + wanted.path("VariantName").asString()
              + "\" is/are not present in the endpoint \""
              + e.arn()
              + "\".");
    }
    if (!e.status.equals("InService")) {
      throw new WireAws.WireError(
          400, "ValidationException", "Cannot update in-progress endpoint \"" + e.arn() + "\".");
    }
    int count = wanted.path("DesiredInstanceCount").asInt();
    int quota = e.spec.quotaMaxInstances();
    if (count > quota) {
      throw new WireAws.WireError(
          400,
          "ResourceLimitExceeded",
          "The account-level service limit '"
              + e.spec.config().instanceType()
              + " for endpoint usage' is "
              + quota
              + " Instances, with current utilization of "
              + e.instances.size()
              + " Instances and a request delta of "
              + (count - e.instances.size())
              + " Instances. Please use AWS Service Quotas to request an increase for this"
              + " quota.");
    }
    e.desired = count;
    e.status = "Updating";
    if (count > e.instances.size()) {
      launch(e, count - e.instances.size());
    } else {
      while (e.instances.size() > count) {
        WireInstance gone = e.instances.removeLast();
        e.inService.remove(gone);
        Thread.ofVirtual().start(gone::close);
      }
      e.status = "InService";
      notifyAll();
    }
    ObjectNode out = json.createObjectNode();
    out.put("EndpointArn", e.arn());
    return out;
  }

  private synchronized ObjectNode describeScalableTargets(JsonNode in) {
    if (!"sagemaker".equals(in.path("ServiceNamespace").asString())) {
      throw new WireAws.WireError(
          400, "ValidationException", "this fake serves the sagemaker namespace only");
    }
    ObjectNode out = json.createObjectNode();
    ArrayNode targets = out.putArray("ScalableTargets");
    for (JsonNode id : in.path("ResourceIds")) {
      for (Endpoint e : endpoints.values()) {
        if (e.targetRegistered && e.spec.resourceId().equals(id.asString())) {
          ObjectNode t = targets.addObject();
          t.put("ServiceNamespace", "sagemaker");
          t.put("ResourceId", e.spec.resourceId());
          t.put("ScalableDimension", AwsNames.SCALABLE_DIMENSION);
          t.put("MinCapacity", e.spec.config().minInstances());
          t.put("MaxCapacity", e.spec.config().maxInstances());
          t.put(
              "RoleARN",
              "arn:aws:iam::"
                  + WireAws.ACCOUNT
                  + ":role/aws-service-role/sagemaker.application-autoscaling.amazonaws.com/"
                  + "AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint");
          t.put("CreationTime", epochSeconds(clock.instant().minusSeconds(3600)));
          ObjectNode s = t.putObject("SuspendedState");
          s.put("DynamicScalingInSuspended", e.in);
          s.put("DynamicScalingOutSuspended", e.out);
          s.put("ScheduledScalingSuspended", e.scheduled);
        }
      }
    }
    return out;
  }

  /** The deployed config's scheduled floors, as the stack's scheduled actions. */
  private synchronized ObjectNode describeScheduledActions(JsonNode in) {
    String resourceId = in.path("ResourceId").asString();
    ObjectNode out = json.createObjectNode();
    ArrayNode actions = out.putArray("ScheduledActions");
    for (Endpoint e : endpoints.values()) {
      if (!e.targetRegistered || !e.spec.resourceId().equals(resourceId)) {
        continue;
      }
      for (var f : e.spec.config().scheduledFloorsOrNone()) {
        ObjectNode a = actions.addObject();
        a.put("ScheduledActionName", "floor-" + f.at().replace(":", ""));
        a.put("ServiceNamespace", "sagemaker");
        a.put(
            "Schedule",
            "cron("
                + Integer.parseInt(f.at().substring(3))
                + " "
                + Integer.parseInt(f.at().substring(0, 2))
                + " * * ? *)");
        a.put("ResourceId", resourceId);
        a.put("ScalableDimension", AwsNames.SCALABLE_DIMENSION);
        a.putObject("ScalableTargetAction").put("MinCapacity", f.minCapacity());
        a.put("CreationTime", epochSeconds(clock.instant().minusSeconds(3600)));
      }
    }
    return out;
  }

  private synchronized ObjectNode describeScalingPolicies(JsonNode in) {
    String resourceId = in.path("ResourceId").asString();
    List<ObjectNode> all = new ArrayList<>();
    for (Endpoint e : endpoints.values()) {
      if (resourceId.isEmpty() || e.spec.resourceId().equals(resourceId)) {
        all.addAll(e.policies);
      }
    }
    ObjectNode out = json.createObjectNode();
    int from = token(in.path("NextToken"));
    ArrayNode page = out.putArray("ScalingPolicies");
    all.subList(from, Math.min(all.size(), from + PAGE)).forEach(page::add);
    if (from + PAGE < all.size()) {
      out.put("NextToken", nextToken(from + PAGE));
    }
    return out;
  }

  private synchronized ObjectNode registerScalableTarget(JsonNode in) {
    String resourceId = required(in, "ResourceId");
    Endpoint e =
        endpoints.values().stream()
            .filter(x -> x.spec.resourceId().equals(resourceId))
            .findFirst()
            .orElseThrow(() ->
                new WireAws.WireError(
                    400,
                    "ValidationException",
                    "Unsupported resource id " + resourceId + ": no such SageMaker variant"));
    if (!e.targetRegistered) {
      if (!in.has("MinCapacity") || !in.has("MaxCapacity")) {
        throw new WireAws.WireError(
            400,
            "ValidationException",
            "MinCapacity and MaxCapacity are required for registering a new scalable target");
      }
      e.targetRegistered = true;
    }
    JsonNode s = in.path("SuspendedState");
    if (s.has("DynamicScalingInSuspended")) {
      e.in = s.get("DynamicScalingInSuspended").asBoolean();
    }
    if (s.has("DynamicScalingOutSuspended")) {
      e.out = s.get("DynamicScalingOutSuspended").asBoolean();
    }
    if (s.has("ScheduledScalingSuspended")) {
      e.scheduled = s.get("ScheduledScalingSuspended").asBoolean();
    }
    ObjectNode out = json.createObjectNode();
    out.put(
        "ScalableTargetARN",
        "arn:aws:application-autoscaling:"
            + WireAws.REGION
            + ":"
            + WireAws.ACCOUNT
            + ":scalable-target/0a1b2c3d4e5f");
    return out;
  }

  private Endpoint byLogGroup(String group) {
    for (Endpoint e : endpoints.values()) {
      if (e.spec.logGroupName().equals(group)) {
        return e;
      }
    }
    throw new WireAws.WireError(
        400, "ResourceNotFoundException", "The specified log group does not exist.");
  }

  private synchronized ObjectNode describeLogStreams(JsonNode in) {
    Endpoint e = byLogGroup(required(in, "logGroupName"));
    List<String> names = new ArrayList<>(e.streams.keySet());
    int from = token(in.path("nextToken"));
    ObjectNode out = json.createObjectNode();
    ArrayNode page = out.putArray("logStreams");
    for (String name : names.subList(from, Math.min(names.size(), from + PAGE))) {
      List<Event> events = e.streams.get(name);
      ObjectNode s = page.addObject();
      s.put("logStreamName", name);
      s.put("creationTime", events.isEmpty() ? clock.millis() : events.getFirst().timestampMs());
      if (!events.isEmpty()) {
        s.put("firstEventTimestamp", events.getFirst().timestampMs());
        s.put("lastEventTimestamp", events.getLast().timestampMs());
        s.put("lastIngestionTime", events.getLast().ingestionMs());
      }
      s.put(
          "arn",
          "arn:aws:logs:"
              + WireAws.REGION
              + ":"
              + WireAws.ACCOUNT
              + ":log-group:"
              + e.spec.logGroupName()
              + ":log-stream:"
              + name);
      s.put("storedBytes", 0);
    }
    if (from + PAGE < names.size()) {
      out.put("nextToken", nextToken(from + PAGE));
    }
    return out;
  }

  private synchronized ObjectNode getLogEvents(JsonNode in) {
    Endpoint e = byLogGroup(required(in, "logGroupName"));
    String stream = required(in, "logStreamName");
    List<Event> events = e.streams.get(stream);
    if (events == null) {
      throw new WireAws.WireError(
          400, "ResourceNotFoundException", "The specified log stream does not exist.");
    }
    String given = in.path("nextToken").asString();
    int from = given.isEmpty() ? 0 : Integer.parseInt(given.substring(2));
    List<Event> snapshot = List.copyOf(events);
    int to = Math.min(snapshot.size(), from + EVENTS_PAGE);
    ObjectNode out = json.createObjectNode();
    ArrayNode page = out.putArray("events");
    for (Event ev : snapshot.subList(Math.min(from, to), to)) {
      page.addObject()
          .put("timestamp", ev.timestampMs())
          .put("message", ev.message())
          .put("ingestionTime", ev.ingestionMs());
    }
    // At the end of the stream GetLogEvents answers with the token it was given.
    out.put("nextForwardToken", String.format(Locale.ROOT, "f/%056d", to));
    out.put("nextBackwardToken", String.format(Locale.ROOT, "b/%056d", from));
    return out;
  }

  private static int token(JsonNode t) {
    String s = t.asString();
    if (s.isEmpty()) {
      return 0;
    }
    try {
      return Integer.parseInt(
          new String(java.util.Base64.getDecoder().decode(s), StandardCharsets.UTF_8).substring(5));
    } catch (IllegalArgumentException | StringIndexOutOfBoundsException e) {
      throw new WireAws.WireError(400, "InvalidNextTokenException", "Invalid NextToken " + s);
    }
  }

  private static String nextToken(int index) {
    return java.util.Base64.getEncoder()
        .encodeToString(("page:" + index).getBytes(StandardCharsets.UTF_8));
  }

  private static double epochSeconds(Instant t) {
    return t.toEpochMilli() / 1000.0;
  }

  // ---------------------------------------------------------------- CloudWatch (Query)

  String query(String operation, Map<String, String> form) {
    return switch (operation) {
      case "DescribeAlarms" -> describeAlarms(form);
      case "GetMetricData" -> getMetricData(form);
      default ->
          throw new WireAws.WireError(
              400,
              "InvalidAction",
              "The action " + operation + " is not valid for this web service.");
    };
  }

  private synchronized String describeAlarms(Map<String, String> form) {
    List<String> names = members(form, "AlarmNames.member.");
    List<ObjectNode> matching =
        alarms.values().stream()
            .filter(a -> names.isEmpty() || names.contains(a.get("AlarmName").asString()))
            .toList();
    int from = form.containsKey("NextToken") ? Integer.parseInt(form.get("NextToken")) : 0;
    int size = Math.min(PAGE, Integer.parseInt(form.getOrDefault("MaxRecords", "50")));
    StringBuilder b = new StringBuilder("<MetricAlarms>");
    for (ObjectNode a : matching.subList(from, Math.min(matching.size(), from + size))) {
      b.append("<member>");
      tag(b, "AlarmName", a.get("AlarmName").asString());
      tag(b, "AlarmArn", alarmArn(a.get("AlarmName").asString()));
      b.append("<AlarmActions><member>")
          .append(xml(a.get("Action").asString()))
          .append("</member></AlarmActions>");
      tag(b, "StateValue", a.get("StateValue").asString());
      tag(b, "StateUpdatedTimestamp", clock.instant().toString());
      String endpoint = a.get("Endpoint").asString();
      String variant = endpoints.get(endpoint).spec.variantName();
      if (a.has("MetricName")) {
        tag(b, "MetricName", a.get("MetricName").asString());
        tag(b, "Namespace", AwsNames.SAGEMAKER_NAMESPACE);
        tag(b, "Statistic", a.get("Statistic").asString());
        dimensions(b, endpoint, variant);
        tag(b, "Period", a.get("Period").asString());
      } else {
        b.append("<Metrics><member><Id>m1</Id><ReturnData>true</ReturnData><MetricStat><Metric>");
        tag(b, "Namespace", AwsNames.SAGEMAKER_NAMESPACE);
        tag(b, "MetricName", "ConcurrentRequestsPerModel");
        dimensions(b, endpoint, variant);
        b.append("</Metric>");
        tag(b, "Period", a.get("MetricsPeriod").asString());
        tag(b, "Stat", a.get("MetricsStat").asString());
        b.append("</MetricStat></member></Metrics>");
      }
      tag(b, "EvaluationPeriods", a.get("EvaluationPeriods").asString());
      tag(b, "Threshold", a.get("Threshold").asString());
      tag(b, "ComparisonOperator", a.get("ComparisonOperator").asString());
      if (a.has("TreatMissingData")) {
        tag(b, "TreatMissingData", a.get("TreatMissingData").asString());
      }
      b.append("</member>");
    }
    b.append("</MetricAlarms><CompositeAlarms/>");
    if (from + size < matching.size()) {
      tag(b, "NextToken", Integer.toString(from + size));
    }
    return b.toString();
  }

  private static void dimensions(StringBuilder b, String endpoint, String variant) {
    b.append("<Dimensions><member><Name>EndpointName</Name><Value>")
        .append(xml(endpoint))
        .append("</Value></member><member><Name>VariantName</Name><Value>")
        .append(xml(variant))
        .append("</Value></member></Dimensions>");
  }

  /**
   * Every MetricStat query of the request ({@code MetricDataQueries.member.N}, as many as sent)
   * over the recorded samples: buckets of {@code Period} seconds aligned to the epoch, only buckets
   * with samples (CloudWatch publishes nothing for an idle period), the statistic over each
   * bucket's samples; {@link #PAGE} datapoints of each query per page, {@code StatusCode
   * PartialData} for a query with more to come and a {@code NextToken} while any has. {@link
   * #answerNextMetricDataWith} makes the next answer carry another status and no token.
   */
  private String getMetricData(Map<String, String> form) {
    Instant start = Instant.parse(form.get("StartTime"));
    Instant end = Instant.parse(form.get("EndTime"));
    int from = form.containsKey("NextToken") ? Integer.parseInt(form.get("NextToken")) : 0;
    String forced = forcedMetricStatus;
    forcedMetricStatus = null;
    StringBuilder b = new StringBuilder("<MetricDataResults>");
    boolean more = false;
    for (int m = 1; form.containsKey("MetricDataQueries.member." + m + ".Id"); m++) {
      String q = "MetricDataQueries.member." + m + ".";
      List<Map.Entry<Long, List<Double>>> points = metricPoints(form, q, m, start, end);
      int to = Math.min(points.size(), from + PAGE);
      boolean left = to < points.size();
      more |= left;
      b.append("<member>");
      tag(b, "Id", form.get(q + "Id"));
      tag(b, "Label", form.get(q + "MetricStat.Metric.MetricName"));
      b.append("<Timestamps>");
      for (var p : points.subList(Math.min(from, to), to)) {
        tag(b, "member", Instant.ofEpochSecond(p.getKey()).toString());
      }
      b.append("</Timestamps><Values>");
      for (var p : points.subList(Math.min(from, to), to)) {
        tag(b, "member", Double.toString(statistic(form.get(q + "MetricStat.Stat"), p.getValue())));
      }
      b.append("</Values>");
      tag(b, "StatusCode", forced != null ? forced : left ? "PartialData" : "Complete");
      b.append("</member>");
    }
    b.append("</MetricDataResults><Messages/>");
    if (more && forced == null) {
      tag(b, "NextToken", Integer.toString(from + PAGE));
    }
    return b.toString();
  }

  private volatile @Nullable String forcedMetricStatus;

  /** The next GetMetricData answer gives every result {@code statusCode} and no NextToken. */
  void answerNextMetricDataWith(String statusCode) {
    forcedMetricStatus = statusCode;
  }

  /** One query's datapoints in the requested order, validated as CloudWatch validates them. */
  private List<Map.Entry<Long, List<Double>>> metricPoints(
      Map<String, String> form, String q, int member, Instant start, Instant end) {
    String metric = form.get(q + "MetricStat.Metric.MetricName");
    int period = Integer.parseInt(form.get(q + "MetricStat.Period"));
    if (!AwsNames.SAGEMAKER_NAMESPACE.equals(form.get(q + "MetricStat.Metric.Namespace"))) {
      throw new WireAws.WireError(400, "InvalidParameterValue", "only AWS/SageMaker is served");
    }
    if (period < 1
        || (period < 60 && period != 1 && period != 5 && period != 10 && period != 30)
        || (period >= 60 && period % 60 != 0)) {
      throw new WireAws.WireError(
          400,
          "InvalidParameterValue",
          "The parameter MetricDataQueries.member."
              + member
              + ".MetricStat.Period must be 1, 5, 10, 30, or a multiple of 60.");
    }
    Map<String, String> dims = new TreeMap<>();
    for (int i = 1;
        form.containsKey(q + "MetricStat.Metric.Dimensions.member." + i + ".Name");
        i++) {
      dims.put(
          form.get(q + "MetricStat.Metric.Dimensions.member." + i + ".Name"),
          form.get(q + "MetricStat.Metric.Dimensions.member." + i + ".Value"));
    }
    Map<Long, List<Double>> buckets = new TreeMap<>();
    for (Sample s : samples) {
      if (s.metric().equals(metric)
          && s.endpoint().equals(dims.get("EndpointName"))
          && !s.at().isBefore(start)
          && s.at().isBefore(end)) {
        long bucket = s.at().getEpochSecond() / period * period;
        buckets.computeIfAbsent(bucket, k -> new ArrayList<>()).add(s.value());
      }
    }
    List<Map.Entry<Long, List<Double>>> points = new ArrayList<>(buckets.entrySet());
    if ("TimestampDescending".equals(form.getOrDefault("ScanBy", "TimestampDescending"))) {
      points.sort(Map.Entry.<Long, List<Double>>comparingByKey().reversed());
    }
    return points;
  }

  private static double statistic(String stat, List<Double> values) {
    List<Double> sorted = values.stream().sorted(Comparator.naturalOrder()).toList();
    return switch (stat) {
      case "Maximum" -> sorted.getLast();
      case "Minimum" -> sorted.getFirst();
      case "Sum" -> sorted.stream().mapToDouble(Double::doubleValue).sum();
      case "SampleCount" -> sorted.size();
      case "Average" -> sorted.stream().mapToDouble(Double::doubleValue).average().orElse(0);
      default -> {
        if (!stat.startsWith("p")) {
          throw new WireAws.WireError(
              400, "InvalidParameterValue", "Unrecognized statistic " + stat);
        }
        double p = Double.parseDouble(stat.substring(1)) / 100.0;
        yield sorted.get(Math.max(0, (int) Math.ceil(p * sorted.size()) - 1));
      }
    };
  }

  private static List<String> members(Map<String, String> form, String prefix) {
    List<String> out = new ArrayList<>();
    for (int i = 1; form.containsKey(prefix + i); i++) {
      out.add(form.get(prefix + i));
    }
    return out;
  }

  private static void tag(StringBuilder b, String name, String value) {
    b.append('<').append(name).append('>').append(xml(value)).append("</").append(name).append('>');
  }

  static String xml(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  // ---------------------------------------------------------------- the runtime's bookkeeping

  /** One invocation in flight: the instance it went to, and the metrics it leaves. */
  final class Invocation implements AutoCloseable {
    private final Endpoint endpoint;
    private final URI instance;
    private final Instant started;
    private boolean firstChunk;
    private int failedStatus;

    private Invocation(Endpoint endpoint, URI instance) {
      this.endpoint = endpoint;
      this.instance = instance;
      this.started = clock.instant();
    }

    URI instance() {
      return instance;
    }

    String endpoint() {
      return endpoint.spec.endpointName();
    }

    String variant() {
      return endpoint.spec.variantName();
    }

    void chunk() {
      if (!firstChunk) {
        firstChunk = true;
        Instant now = clock.instant();
        record("FirstChunkLatency", now, Duration.between(started, now).toNanos() / 1000.0);
      }
    }

    void failed(int status) {
      failedStatus = status;
    }

    private void record(String metric, Instant at, double value) {
      samples.add(new Sample(endpoint.spec.endpointName(), metric, at, value));
    }

    @Override
    public void close() {
      Instant now = clock.instant();
      record("Invocations", now, 1);
      record("Invocation4XXErrors", now, failedStatus >= 400 && failedStatus < 500 ? 1 : 0);
      record("Invocation5XXErrors", now, failedStatus >= 500 ? 1 : 0);
      synchronized (WireServices.this) {
        endpoint.inFlight--;
        record("ConcurrentRequestsPerModel", now, endpoint.inFlight);
      }
    }
  }

  /** Routes one invocation to an in-service instance (round robin). */
  synchronized Invocation startInvocation(String name) {
    Endpoint e = endpoints.get(name);
    if (e == null) {
      throw new WireAws.WireError(
          400,
          "ValidationException",
          "Endpoint " + name + " of account " + WireAws.ACCOUNT + " not found.");
    }
    if (e.inService.isEmpty()) {
      throw new WireAws.WireError(
          400,
          "ValidationException",
          "Endpoint " + name + " has no instance in service (status " + e.status + ").");
    }
    URI uri = e.inService.get(e.next++ % e.inService.size()).uri();
    e.inFlight++;
    Invocation call = new Invocation(e, uri);
    call.record("ConcurrentRequestsPerModel", call.started, e.inFlight);
    return call;
  }
}
