package dev.speechscale.platform.local;

import dev.speechscale.artifacts.ScalingMetricChoice;
import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.MetricQuery.Metric;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.ScheduledAction;
import dev.speechscale.platform.Statistic;
import dev.speechscale.platform.SuspendedState;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Application Auto Scaling operations the AWS adapter calls, answered in AWS JSON 1.1 ({@code
 * X-Amz-Target: AnyScaleFrontendService.<Operation>}) from the local endpoint's autoscaler (the
 * shared scaling engine the supervisor runs):
 *
 * <ul>
 *   <li>DescribeScalableTargets —
 *       https://docs.aws.amazon.com/autoscaling/application/APIReference/API_DescribeScalableTargets.html
 *       : the variant's target with its min/max and suspended flags; no ResourceIds lists every
 *       endpoint in the state directory.
 *   <li>DescribeScalingPolicies —
 *       https://docs.aws.amazon.com/autoscaling/application/APIReference/API_DescribeScalingPolicies.html
 *       : the target-tracking policy (the predefined high-resolution ConcurrentRequestsPerModel
 *       metric when it is tracked at Maximum over 10 s, else a customized metric) and the step
 *       scale-in policy, each with the alarms that invoke it.
 *   <li>RegisterScalableTarget —
 *       https://docs.aws.amazon.com/autoscaling/application/APIReference/API_RegisterScalableTarget.html
 *       : on an existing target, updates the suspended flags given and leaves the others, as the
 *       reference says ("if you don't specify ... the current value is kept"). The local platform
 *       takes min and max from the deployed plan: a different MinCapacity or MaxCapacity is refused
 *       with ValidationException naming the redeploy that changes them.
 *   <li>PutScheduledAction —
 *       https://docs.aws.amazon.com/autoscaling/application/APIReference/API_PutScheduledAction.html
 *       : creates or updates a scheduled action by name. The local platform runs scheduled
 *       minimum-capacity floors: a daily {@code cron(M H * * ? *)} (UTC) whose {@code
 *       ScalableTargetAction} sets MinCapacity (MaxCapacity absent or the deployed maximum);
 *       anything else is refused with ValidationException.
 *   <li>DescribeScheduledActions —
 *       https://docs.aws.amazon.com/autoscaling/application/APIReference/API_DescribeScheduledActions.html
 *       : the floors, deployed ({@code floor-HHMM}) and put, filtered by ResourceId and
 *       ScheduledActionNames when given.
 *   <li>DeleteScheduledAction —
 *       https://docs.aws.amazon.com/autoscaling/application/APIReference/API_DeleteScheduledAction.html
 *       : deletes one by name; an unknown name is ObjectNotFoundException.
 * </ul>
 */
record AwsAutoScalingOperations(
    Platform backend, AwsWire wire, Clock clock, Supplier<List<String>> endpoints) {
  ObjectNode call(String operation, JsonNode in) {
    return switch (operation) {
      case "DescribeScalableTargets" -> describeScalableTargets(in);
      case "DescribeScalingPolicies" -> describeScalingPolicies(in);
      case "RegisterScalableTarget" -> registerScalableTarget(in);
      case "PutScheduledAction" -> putScheduledAction(in);
      case "DescribeScheduledActions" -> describeScheduledActions(in);
      case "DeleteScheduledAction" -> deleteScheduledAction(in);
      default -> throw AwsControlPlane.unknownOperation("ApplicationAutoScaling", operation);
    };
  }

  private static void requireSageMaker(JsonNode in) {
    String namespace = AwsWire.required(in, "ServiceNamespace");
    if (!namespace.equals("sagemaker")) {
      throw AwsWireError.validation(
          "the local control plane serves ServiceNamespace sagemaker only, not " + namespace);
    }
  }

  /** The endpoint's scaling, or none when the endpoint is not in the state directory. */
  private @Nullable ScalingState state(String endpoint) {
    try {
      return backend.scalingState(endpoint);
    } catch (PlatformException e) {
      if (e.reason() instanceof PlatformException.Reason.NotFound) {
        return null;
      }
      throw AwsWire.map(e, AwsWireError.validation(e.reason().message()));
    }
  }

  private ObjectNode describeScalableTargets(JsonNode in) {
    requireSageMaker(in);
    List<String> names = new ArrayList<>();
    in.path("ResourceIds").forEach(id -> names.add(AwsWire.endpointOfResourceId(id.asString())));
    if (!in.has("ResourceIds") || in.path("ResourceIds").isEmpty()) {
      names.addAll(endpoints.get());
    }
    ObjectNode out = AwsWire.JSON.createObjectNode();
    ArrayNode targets = out.putArray("ScalableTargets");
    for (String endpoint : names) {
      ScalingState s = endpoint == null ? null : state(endpoint);
      if (s == null || s.target().isEmpty()) {
        continue;
      }
      ScalingState.ScalableTarget t = s.target().get();
      ObjectNode o = targets.addObject();
      o.put("ServiceNamespace", "sagemaker");
      o.put("ResourceId", AwsWire.resourceId(endpoint));
      o.put("ScalableDimension", "sagemaker:variant:DesiredInstanceCount");
      o.put("MinCapacity", t.minCapacity());
      o.put("MaxCapacity", t.maxCapacity());
      o.put(
          "RoleARN",
          "arn:aws:iam::"
              + wire.account()
              + ":role/aws-service-role/sagemaker.application-autoscaling.amazonaws.com/"
              + "AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint");
      o.put("CreationTime", AwsWire.epochSeconds(clock.instant()));
      ObjectNode suspended = o.putObject("SuspendedState");
      suspended.put("DynamicScalingInSuspended", t.suspended().dynamicScalingIn());
      suspended.put("DynamicScalingOutSuspended", t.suspended().dynamicScalingOut());
      suspended.put("ScheduledScalingSuspended", t.suspended().scheduledScaling());
    }
    return out;
  }

  /**
   * The endpoints a Describe call with an optional {@code ResourceId} names: that one (none when it
   * names no SageMaker variant), or every endpoint when it is left out.
   */
  private List<String> endpointsOfResourceId(JsonNode in) {
    requireSageMaker(in);
    List<String> names = new ArrayList<>();
    String resourceId = in.path("ResourceId").asString();
    if (resourceId.isEmpty()) {
      names.addAll(endpoints.get());
    } else {
      String endpoint = AwsWire.endpointOfResourceId(resourceId);
      if (endpoint != null) {
        names.add(endpoint);
      }
    }
    return names;
  }

  private ObjectNode describeScalingPolicies(JsonNode in) {
    List<String> names = endpointsOfResourceId(in);
    ObjectNode out = AwsWire.JSON.createObjectNode();
    ArrayNode policies = out.putArray("ScalingPolicies");
    for (String endpoint : names) {
      ScalingState s = state(endpoint);
      if (s == null) {
        continue;
      }
      for (ScalingPolicy p : s.policies()) {
        policies.add(policy(endpoint, p, s.alarms()));
      }
    }
    return out;
  }

  String policyArn(String endpoint, String name) {
    return wire.arn(
        "autoscaling",
        "scalingPolicy:00000000-0000-4000-8000-000000000000:resource/sagemaker/"
            + AwsWire.resourceId(endpoint)
            + ":policyName/"
            + name);
  }

  private ObjectNode policy(String endpoint, ScalingPolicy p, List<Alarm> alarms) {
    ObjectNode o = AwsWire.JSON.createObjectNode();
    o.put("PolicyARN", policyArn(endpoint, p.name()));
    o.put("PolicyName", p.name());
    o.put("ServiceNamespace", "sagemaker");
    o.put("ResourceId", AwsWire.resourceId(endpoint));
    o.put("ScalableDimension", "sagemaker:variant:DesiredInstanceCount");
    o.put("CreationTime", AwsWire.epochSeconds(clock.instant()));
    switch (p) {
      case ScalingPolicy.TargetTracking t -> {
        o.put("PolicyType", "TargetTrackingScaling");
        ObjectNode c = o.putObject("TargetTrackingScalingPolicyConfiguration");
        c.put("TargetValue", t.targetValue());
        if (t.metricName().equals(Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName())
            && t.statistic() == Statistic.MAXIMUM
            && t.periodSeconds() == 10) {
          c.putObject("PredefinedMetricSpecification")
              .put(
                  "PredefinedMetricType",
                  ScalingMetricChoice.CONCURRENT_REQUESTS_PER_MODEL.predefinedMetricType());
        } else if (t.metricName().equals(Metric.INVOCATIONS_PER_INSTANCE.cloudWatchName())
            && t.statistic() == Statistic.SUM) {
          c.putObject("PredefinedMetricSpecification")
              .put(
                  "PredefinedMetricType",
                  ScalingMetricChoice.INVOCATIONS_PER_INSTANCE.predefinedMetricType());
        } else {
          ObjectNode m = c.putObject("CustomizedMetricSpecification");
          m.put("MetricName", t.metricName());
          m.put("Namespace", "AWS/SageMaker");
          m.put("Statistic", AwsCloudWatchOperations.statistic(t.statistic()));
          ArrayNode dims = m.putArray("Dimensions");
          dims.addObject().put("Name", "EndpointName").put("Value", endpoint);
          dims.addObject().put("Name", "VariantName").put("Value", AwsWire.VARIANT);
        }
        c.put("ScaleOutCooldown", t.scaleOutCooldownSeconds());
        c.put("ScaleInCooldown", t.scaleInCooldownSeconds());
        c.put("DisableScaleIn", t.disableScaleIn());
      }
      case ScalingPolicy.StepScaling s -> {
        o.put("PolicyType", "StepScaling");
        ObjectNode c = o.putObject("StepScalingPolicyConfiguration");
        c.put("AdjustmentType", s.adjustmentType());
        ArrayNode steps = c.putArray("StepAdjustments");
        for (ScalingPolicy.Step step : s.steps()) {
          ObjectNode st = steps.addObject();
          if (step.lowerBound() != null) {
            st.put("MetricIntervalLowerBound", step.lowerBound());
          }
          if (step.upperBound() != null) {
            st.put("MetricIntervalUpperBound", step.upperBound());
          }
          st.put("ScalingAdjustment", step.adjustment());
        }
        c.put("Cooldown", s.cooldownSeconds());
        c.put("MetricAggregationType", aggregation(s, alarms));
      }
    }
    ArrayNode invokedBy = o.putArray("Alarms");
    for (Alarm a : alarms) {
      if (a.actions().contains(p.name())) {
        invokedBy
            .addObject()
            .put("AlarmName", a.name())
            .put("AlarmARN", wire.arn("cloudwatch", "alarm:" + a.name()));
      }
    }
    return o;
  }

  private ObjectNode registerScalableTarget(JsonNode in) {
    Resource r =
        resource(
            in,
            resourceId ->
                AwsWireError.validation(
                    "Unsupported resource id "
                        + resourceId
                        + ": no such SageMaker endpoint variant"));
    String endpoint = r.endpoint();
    ScalingState s = r.state();
    if (s.target().isEmpty()) {
      throw AwsWireError.validation(
          "the local platform registers a scalable target only when it deploys "
              + endpoint
              + " behind a matching plan ("
              + s.reason()
              + "); redeploy with --plan");
    }
    ScalingState.ScalableTarget t = s.target().get();
    capacity(in, "MinCapacity", t.minCapacity(), endpoint);
    capacity(in, "MaxCapacity", t.maxCapacity(), endpoint);
    JsonNode given = in.path("SuspendedState");
    SuspendedState now = t.suspended();
    SuspendedState wanted =
        new SuspendedState(
            flag(given, "DynamicScalingInSuspended", now.dynamicScalingIn()),
            flag(given, "DynamicScalingOutSuspended", now.dynamicScalingOut()),
            flag(given, "ScheduledScalingSuspended", now.scheduledScaling()));
    if (!wanted.equals(now)) {
      try {
        backend.setSuspended(endpoint, wanted);
      } catch (PlatformException e) {
        throw AwsWire.map(e, AwsWireError.validation(e.reason().message()));
      }
    }
    ObjectNode out = AwsWire.JSON.createObjectNode();
    out.put(
        "ScalableTargetARN",
        wire.arn("application-autoscaling", "scalable-target/" + endpoint.replace('-', '0')));
    return out;
  }

  /** The endpoint of a request's ResourceId, which must have a scalable target. */
  private String targetEndpoint(JsonNode in) {
    Function<String, AwsWireError> none =
        resourceId ->
            new AwsWireError(
                400,
                "ObjectNotFoundException",
                "No scalable target registered for service namespace: sagemaker, resource ID: "
                    + resourceId
                    + ", scalable dimension: sagemaker:variant:DesiredInstanceCount");
    Resource r = resource(in, none);
    if (r.state().target().isEmpty()) {
      throw none.apply(r.resourceId());
    }
    return r.endpoint();
  }

  /** A request's SageMaker ResourceId, the endpoint it names and that endpoint's scaling. */
  private record Resource(String resourceId, String endpoint, ScalingState state) {}

  /**
   * The endpoint a request's ResourceId names, with its scaling; {@code notFound} of the ResourceId
   * when it names no endpoint in the state directory.
   */
  private Resource resource(JsonNode in, Function<String, AwsWireError> notFound) {
    requireSageMaker(in);
    String resourceId = AwsWire.required(in, "ResourceId");
    String endpoint = AwsWire.endpointOfResourceId(resourceId);
    ScalingState s = endpoint == null ? null : state(endpoint);
    if (endpoint == null || s == null) {
      throw notFound.apply(resourceId);
    }
    return new Resource(resourceId, endpoint, s);
  }

  private ObjectNode putScheduledAction(JsonNode in) {
    String endpoint = targetEndpoint(in);
    String name = AwsWire.required(in, "ScheduledActionName");
    String schedule = AwsWire.required(in, "Schedule");
    if (in.hasNonNull("Timezone") && !in.get("Timezone").asString().equals("UTC")) {
      throw AwsWireError.validation(
          "Timezone "
              + in.get("Timezone").asString()
              + " is not supported locally; the local platform runs schedules in UTC (the"
              + " default): leave Timezone out");
    }
    JsonNode action = in.path("ScalableTargetAction");
    Integer min = action.hasNonNull("MinCapacity") ? action.get("MinCapacity").asInt() : null;
    Integer max = action.hasNonNull("MaxCapacity") ? action.get("MaxCapacity").asInt() : null;
    try {
      backend.putScheduledAction(endpoint, new ScheduledAction(name, schedule, min, max));
    } catch (PlatformException e) {
      throw AwsWire.map(e, AwsWireError.validation(e.reason().message()));
    }
    return AwsWire.JSON.createObjectNode();
  }

  private ObjectNode describeScheduledActions(JsonNode in) {
    List<String> names = endpointsOfResourceId(in);
    List<String> wanted = new ArrayList<>();
    in.path("ScheduledActionNames").forEach(n -> wanted.add(n.asString()));
    ObjectNode out = AwsWire.JSON.createObjectNode();
    ArrayNode actions = out.putArray("ScheduledActions");
    for (String endpoint : names) {
      ScalingState s = state(endpoint);
      if (s == null || s.target().isEmpty()) {
        continue;
      }
      for (ScheduledAction a : s.target().get().scheduledActions()) {
        if (!wanted.isEmpty() && !wanted.contains(a.name())) {
          continue;
        }
        ObjectNode o = actions.addObject();
        o.put("ScheduledActionName", a.name());
        o.put(
            "ScheduledActionARN",
            wire.arn(
                "autoscaling",
                "scheduledAction:00000000-0000-4000-8000-000000000000:resource/sagemaker/"
                    + AwsWire.resourceId(endpoint)
                    + ":scheduledActionName/"
                    + a.name()));
        o.put("ServiceNamespace", "sagemaker");
        o.put("Schedule", a.schedule());
        o.put("Timezone", "UTC");
        o.put("ResourceId", AwsWire.resourceId(endpoint));
        o.put("ScalableDimension", "sagemaker:variant:DesiredInstanceCount");
        ObjectNode t = o.putObject("ScalableTargetAction");
        if (a.minCapacity() != null) {
          t.put("MinCapacity", a.minCapacity());
        }
        if (a.maxCapacity() != null) {
          t.put("MaxCapacity", a.maxCapacity());
        }
        o.put("CreationTime", AwsWire.epochSeconds(clock.instant()));
      }
    }
    return out;
  }

  private ObjectNode deleteScheduledAction(JsonNode in) {
    String endpoint = targetEndpoint(in);
    String name = AwsWire.required(in, "ScheduledActionName");
    ScalingState s = state(endpoint);
    boolean known =
        s != null
            && s.target().isPresent()
            && s.target().get().scheduledActions().stream().anyMatch(a -> a.name().equals(name));
    if (!known) {
      throw new AwsWireError(
          400, "ObjectNotFoundException", "No scheduled action found for name: " + name);
    }
    try {
      backend.deleteScheduledAction(endpoint, name);
    } catch (PlatformException e) {
      throw AwsWire.map(e, AwsWireError.validation(e.reason().message()));
    }
    return AwsWire.JSON.createObjectNode();
  }

  private static void capacity(JsonNode in, String member, int deployed, String endpoint) {
    JsonNode v = in.get(member);
    if (v != null && !v.isNull() && v.asInt() != deployed) {
      throw AwsWireError.validation(
          member
              + " ("
              + v.asInt()
              + ") differs from the deployed "
              + deployed
              + ": the local platform takes the scalable target's capacity from the plan "
              + endpoint
              + " was deployed behind; redeploy it behind a plan with the new value");
    }
  }

  private static boolean flag(JsonNode given, String member, boolean current) {
    JsonNode v = given.get(member);
    return v == null || v.isNull() ? current : v.asBoolean();
  }

  /**
   * A step policy's MetricAggregationType: its alarm's statistic (the plan's scale_in_alarm,
   * Maximum or Average), as the CDK stack deploys it.
   */
  private static String aggregation(ScalingPolicy.StepScaling s, List<Alarm> alarms) {
    return alarms.stream()
        .filter(a -> s.alarmNames().contains(a.name()) && a.statistic() == Statistic.MAXIMUM)
        .findFirst()
        .map(a -> "Maximum")
        .orElse("Average");
  }
}
