package dev.speechscale.platform.local;

import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.Statistic;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The CloudWatch operations the AWS adapter calls, in the AWS Query protocol as SDK 2.40.2 speaks
 * it to CloudWatch (form-encoded {@code Action=...&Version=2010-08-01}, members flattened as {@code
 * AlarmNames.member.1}, XML answers; see {@link AwsControlPlane}), from the local endpoint's
 * autoscaler alarms and metric store:
 *
 * <ul>
 *   <li>DescribeAlarms —
 *       https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_DescribeAlarms.html :
 *       the target-tracking high alarm and the scale-in alarm of every endpoint, filtered by
 *       AlarmNames or AlarmNamePrefix, with their live state, the policies they invoke and, for the
 *       scale-in alarm, its TreatMissingData as deployed ({@code notBreaching}; the alarms
 *       Application Auto Scaling creates state none, which CloudWatch reads as {@code missing}).
 *       Both are evaluated by the shared scaling engine with CloudWatch's missing-data rules
 *       (CloudWatch User Guide, "Configuring how CloudWatch alarms treat missing data",
 *       https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/alarms-and-missing-data.html;
 *       {@code dev.speechscale.scaling.AlarmEvaluation}).
 *   <li>GetMetricData —
 *       https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_GetMetricData.html :
 *       each MetricStat query on {@code AWS/SageMaker} with an {@code EndpointName} dimension
 *       answered from the metric store (one datapoint a second, aggregated to the period; a period
 *       with no sample has no datapoint, as CloudWatch publishes nothing for it), latencies in
 *       microseconds. Periods must be 1, 5, 10, 30 or a multiple of 60, as for high-resolution
 *       metrics. Every query is answered whole: StatusCode Complete, no NextToken.
 * </ul>
 */
record AwsCloudWatchOperations(
    Platform backend, AwsWire wire, Clock clock, Supplier<List<String>> endpoints) {
  /** The inner XML of {@code <ActionResult>}. */
  String call(String action, Map<String, String> form) {
    return switch (action) {
      case "DescribeAlarms" -> describeAlarms(form);
      case "GetMetricData" -> getMetricData(form);
      default ->
          throw new AwsWireError(
              400, "InvalidAction", "The action " + action + " is not valid for this web service.");
    };
  }

  static String statistic(@Nullable Statistic s) {
    return s == null ? "Average" : s.cloudWatchName();
  }

  private static Statistic statistic(String s) {
    Statistic stat = Statistic.ofCloudWatchName(s);
    if (stat == null) {
      throw invalid("The statistic " + s + " is not served by the local control plane.");
    }
    return stat;
  }

  private static String comparison(Alarm.@Nullable Comparison c) {
    if (c == null) {
      return "GreaterThanThreshold";
    }
    return switch (c) {
      case GREATER_THAN_THRESHOLD -> "GreaterThanThreshold";
      case GREATER_THAN_OR_EQUAL_TO_THRESHOLD -> "GreaterThanOrEqualToThreshold";
      case LESS_THAN_THRESHOLD -> "LessThanThreshold";
      case LESS_THAN_OR_EQUAL_TO_THRESHOLD -> "LessThanOrEqualToThreshold";
    };
  }

  private static AwsWireError invalid(String message) {
    return new AwsWireError(400, "InvalidParameterValue", message);
  }

  private record Owned(String endpoint, Alarm alarm) {}

  private String describeAlarms(Map<String, String> form) {
    List<String> names = members(form, "AlarmNames.member.");
    String prefix = form.getOrDefault("AlarmNamePrefix", "");
    List<Owned> matching = new ArrayList<>();
    for (String endpoint : endpoints.get()) {
      ScalingState s;
      try {
        s = backend.scalingState(endpoint);
      } catch (PlatformException e) {
        if (e.reason() instanceof PlatformException.Reason.NotFound) {
          continue;
        }
        throw AwsWire.map(e, invalid(e.reason().message()));
      }
      for (Alarm a : s.alarms()) {
        if ((names.isEmpty() || names.contains(a.name())) && a.name().startsWith(prefix)) {
          matching.add(new Owned(endpoint, a));
        }
      }
    }
    StringBuilder b = new StringBuilder("<MetricAlarms>");
    for (Owned o : matching) {
      alarm(b, o.endpoint(), o.alarm());
    }
    return b.append("</MetricAlarms><CompositeAlarms/>").toString();
  }

  private void alarm(StringBuilder b, String endpoint, Alarm a) {
    b.append("<member>");
    tag(b, "AlarmName", a.name());
    tag(b, "AlarmArn", wire.arn("cloudwatch", "alarm:" + a.name()));
    tag(b, "ActionsEnabled", "true");
    b.append("<AlarmActions>");
    for (String policy : a.actions()) {
      tag(
          b,
          "member",
          wire.arn(
              "autoscaling",
              "scalingPolicy:00000000-0000-4000-8000-000000000000:resource/sagemaker/"
                  + AwsWire.resourceId(endpoint)
                  + ":policyName/"
                  + policy));
    }
    b.append("</AlarmActions>");
    tag(b, "StateValue", a.state().name());
    tag(b, "StateUpdatedTimestamp", clock.instant().toString());
    if (a.metricName() != null) {
      tag(b, "MetricName", a.metricName());
    }
    tag(b, "Namespace", "AWS/SageMaker");
    if (a.statistic() == Statistic.P95) {
      tag(b, "ExtendedStatistic", "p95");
    } else {
      tag(b, "Statistic", statistic(a.statistic()));
    }
    b.append("<Dimensions><member><Name>EndpointName</Name><Value>")
        .append(AwsWire.xml(endpoint))
        .append("</Value></member><member><Name>VariantName</Name><Value>")
        .append(AwsWire.VARIANT)
        .append("</Value></member></Dimensions>");
    tag(b, "Period", Integer.toString(a.periodSeconds()));
    tag(b, "EvaluationPeriods", Integer.toString(a.evaluationPeriods()));
    tag(b, "Threshold", Double.toString(a.threshold()));
    tag(b, "ComparisonOperator", comparison(a.comparison()));
    if (a.treatMissingData() != null) {
      // as deployed; an alarm that states none (target tracking's) answers none, as CloudWatch
      tag(b, "TreatMissingData", a.treatMissingData());
    }
    b.append("</member>");
  }

  private String getMetricData(Map<String, String> form) {
    Instant start = instant(form, "StartTime");
    Instant end = instant(form, "EndTime");
    if (!start.isBefore(end)) {
      throw invalid("The parameter StartTime must be less than the parameter EndTime.");
    }
    boolean descending =
        "TimestampDescending".equals(form.getOrDefault("ScanBy", "TimestampDescending"));
    StringBuilder b = new StringBuilder("<MetricDataResults>");
    for (int i = 1; form.containsKey("MetricDataQueries.member." + i + ".Id"); i++) {
      result(b, form, "MetricDataQueries.member." + i + ".", start, end, descending);
    }
    return b.append("</MetricDataResults><Messages/>").toString();
  }

  private void result(
      StringBuilder b,
      Map<String, String> form,
      String q,
      Instant start,
      Instant end,
      boolean descending) {
    String id = form.get(q + "Id");
    String metricName = form.getOrDefault(q + "MetricStat.Metric.MetricName", "");
    if (!"AWS/SageMaker".equals(form.get(q + "MetricStat.Metric.Namespace"))) {
      throw invalid("The local control plane serves MetricStat queries on AWS/SageMaker only.");
    }
    MetricQuery.Metric metric = null;
    for (MetricQuery.Metric m : MetricQuery.Metric.values()) {
      if (m.cloudWatchName().equals(metricName)) {
        metric = m;
      }
    }
    int period = period(form.getOrDefault(q + "MetricStat.Period", ""), q);
    Statistic stat = statistic(form.getOrDefault(q + "MetricStat.Stat", ""));
    String endpoint = null;
    for (int d = 1;
        form.containsKey(q + "MetricStat.Metric.Dimensions.member." + d + ".Name");
        d++) {
      if ("EndpointName"
          .equals(form.get(q + "MetricStat.Metric.Dimensions.member." + d + ".Name"))) {
        endpoint = form.get(q + "MetricStat.Metric.Dimensions.member." + d + ".Value");
      }
    }
    List<MetricSeries.Datapoint> points = new ArrayList<>();
    if (metric != null && endpoint != null) {
      try {
        points.addAll(
            backend
                .metric(
                    endpoint, new MetricQuery(metric, stat, Duration.ofSeconds(period), start, end))
                .datapoints());
      } catch (PlatformException e) {
        // An endpoint CloudWatch has no data for answers an empty series, not an error.
        if (!(e.reason() instanceof PlatformException.Reason.NotFound)) {
          throw AwsWire.map(e, invalid(e.reason().message()));
        }
      }
    }
    Comparator<MetricSeries.Datapoint> order = Comparator.comparing(MetricSeries.Datapoint::at);
    points.sort(descending ? order.reversed() : order);
    b.append("<member>");
    tag(b, "Id", id == null ? "" : id);
    tag(b, "Label", metricName);
    b.append("<Timestamps>");
    points.forEach(p -> tag(b, "member", p.at().toString()));
    b.append("</Timestamps><Values>");
    points.forEach(p -> tag(b, "member", Double.toString(p.value())));
    b.append("</Values>");
    tag(b, "StatusCode", "Complete");
    b.append("</member>");
  }

  private static int period(String text, String q) {
    int period;
    try {
      period = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      period = -1;
    }
    if (period < 1
        || (period < 60 && period != 1 && period != 5 && period != 10 && period != 30)
        || (period >= 60 && period % 60 != 0)) {
      throw invalid(
          "The parameter "
              + q
              + "MetricStat.Period must be 1, 5, 10, 30, or a multiple of 60 (was '"
              + text
              + "').");
    }
    return period;
  }

  private static Instant instant(Map<String, String> form, String member) {
    String v = form.get(member);
    if (v == null) {
      throw new AwsWireError(
          400, "MissingParameter", "The parameter " + member + " must be specified.");
    }
    try {
      return Instant.parse(v);
    } catch (DateTimeParseException e) {
      throw invalid(
          String.format(Locale.ROOT, "The parameter %s (%s) is not an ISO-8601 time.", member, v));
    }
  }

  private static List<String> members(Map<String, String> form, String prefix) {
    List<String> out = new ArrayList<>();
    for (int i = 1; form.containsKey(prefix + i); i++) {
      out.add(form.get(prefix + i));
    }
    return out;
  }

  private static void tag(StringBuilder b, String name, String value) {
    b.append('<')
        .append(name)
        .append('>')
        .append(AwsWire.xml(value))
        .append("</")
        .append(name)
        .append('>');
  }
}
