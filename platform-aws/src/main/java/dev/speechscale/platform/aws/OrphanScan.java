package dev.speechscale.platform.aws;

import dev.speechscale.platform.OrphanedScaling;
import dev.speechscale.platform.PlatformException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalableTargetsRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalableTargetsResponse;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalingPoliciesRequest;
import software.amazon.awssdk.services.applicationautoscaling.model.DescribeScalingPoliciesResponse;
import software.amazon.awssdk.services.applicationautoscaling.model.ScalableTarget;
import software.amazon.awssdk.services.applicationautoscaling.model.ScalingPolicy;
import software.amazon.awssdk.services.applicationautoscaling.model.ServiceNamespace;
import software.amazon.awssdk.services.cloudwatch.model.DescribeAlarmsRequest;
import software.amazon.awssdk.services.cloudwatch.model.DescribeAlarmsResponse;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;

/**
 * The account-wide orphan scan: every SageMaker scalable target and scaling policy in the region,
 * and every CloudWatch alarm on an {@code EndpointName} dimension, whose endpoint DescribeEndpoint
 * no longer finds. Read-only; uses only the calls {@link AwsApis} already wraps (the endpoint's
 * existence is asked of DescribeEndpoint, one call per endpoint named, rather than listing every
 * endpoint in the account).
 */
final class OrphanScan {
  private static final String PREFIX = "endpoint/";

  private final AwsApis.Clients clients;

  OrphanScan(AwsApis.Clients clients) {
    this.clients = clients;
  }

  List<OrphanedScaling> scan() {
    List<OrphanedScaling> found = new ArrayList<>();
    Map<String, Boolean> exists = new LinkedHashMap<>();
    for (ScalableTarget t : targets()) {
      Optional<String> endpoint = endpointOf(t.resourceId());
      if (endpoint.isPresent() && !exists(endpoint.get(), exists)) {
        found.add(
            new OrphanedScaling(
                OrphanedScaling.Kind.SCALABLE_TARGET,
                t.resourceId(),
                endpoint.get(),
                "registered with Application Auto Scaling, endpoint gone; remove with `aws"
                    + " application-autoscaling deregister-scalable-target --service-namespace"
                    + " sagemaker --resource-id "
                    + t.resourceId()
                    + " --scalable-dimension "
                    + t.scalableDimensionAsString()
                    + "`"));
      }
    }
    for (ScalingPolicy p : policies()) {
      Optional<String> endpoint = endpointOf(p.resourceId());
      if (endpoint.isPresent() && !exists(endpoint.get(), exists)) {
        found.add(
            new OrphanedScaling(
                OrphanedScaling.Kind.SCALING_POLICY,
                p.policyName(),
                endpoint.get(),
                p.policyTypeAsString()
                    + " on "
                    + p.resourceId()
                    + ", endpoint gone; remove with `aws application-autoscaling"
                    + " delete-scaling-policy --service-namespace sagemaker --policy-name '"
                    + p.policyName()
                    + "' --resource-id "
                    + p.resourceId()
                    + " --scalable-dimension "
                    + p.scalableDimensionAsString()
                    + "`"));
      }
    }
    for (MetricAlarm a : alarms()) {
      Optional<String> endpoint = endpointDimension(a);
      if (endpoint.isPresent() && !exists(endpoint.get(), exists)) {
        found.add(
            new OrphanedScaling(
                OrphanedScaling.Kind.ALARM,
                a.alarmName(),
                endpoint.get(),
                a.namespace()
                    + " "
                    + a.metricName()
                    + " on EndpointName="
                    + endpoint.get()
                    + ", endpoint gone; remove with `aws cloudwatch delete-alarms --alarm-names '"
                    + a.alarmName()
                    + "'`"));
      }
    }
    return found;
  }

  /** {@code endpoint/<name>/variant/<variant>} → {@code <name>}. */
  static Optional<String> endpointOf(String resourceId) {
    if (resourceId == null || !resourceId.startsWith(PREFIX)) {
      return Optional.empty();
    }
    int end = resourceId.indexOf('/', PREFIX.length());
    return Optional.of(resourceId.substring(PREFIX.length(), end < 0 ? resourceId.length() : end));
  }

  private static Optional<String> endpointDimension(MetricAlarm a) {
    return a.dimensions().stream()
        .filter(d -> "EndpointName".equals(d.name()))
        .map(Dimension::value)
        .findFirst();
  }

  private boolean exists(String endpoint, Map<String, Boolean> known) {
    Boolean cached = known.get(endpoint);
    if (cached != null) {
      return cached;
    }
    boolean found;
    try {
      new EndpointReader(clients.sageMaker()).describeEndpoint(endpoint);
      found = true;
    } catch (PlatformException e) {
      if (!(e.reason() instanceof PlatformException.Reason.NotFound)) {
        throw e;
      }
      found = false;
    }
    known.put(endpoint, found);
    return found;
  }

  private List<ScalableTarget> targets() {
    List<ScalableTarget> out = new ArrayList<>();
    AwsErrors.eachPage(
        "DescribeScalableTargets",
        "sagemaker scalable targets",
        token ->
            clients
                .autoScaling()
                .describeScalableTargets(
                    DescribeScalableTargetsRequest.builder()
                        .serviceNamespace(ServiceNamespace.SAGEMAKER)
                        .nextToken(token)
                        .build()),
        DescribeScalableTargetsResponse::nextToken,
        page -> out.addAll(page.scalableTargets()));
    return out;
  }

  private List<ScalingPolicy> policies() {
    List<ScalingPolicy> out = new ArrayList<>();
    AwsErrors.eachPage(
        "DescribeScalingPolicies",
        "sagemaker scaling policies",
        token ->
            clients
                .autoScaling()
                .describeScalingPolicies(
                    DescribeScalingPoliciesRequest.builder()
                        .serviceNamespace(ServiceNamespace.SAGEMAKER)
                        .nextToken(token)
                        .build()),
        DescribeScalingPoliciesResponse::nextToken,
        page -> out.addAll(page.scalingPolicies()));
    return out;
  }

  private List<MetricAlarm> alarms() {
    List<MetricAlarm> out = new ArrayList<>();
    AwsErrors.eachPage(
        "DescribeAlarms",
        "alarms",
        token ->
            clients
                .cloudWatch()
                .describeAlarms(
                    DescribeAlarmsRequest.builder().maxRecords(100).nextToken(token).build()),
        DescribeAlarmsResponse::nextToken,
        page -> out.addAll(page.metricAlarms()));
    return out;
  }
}
