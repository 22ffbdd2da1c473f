package dev.speechscale.platform.aws;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.ScalingGate;
import dev.speechscale.platform.MetricQuery;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.Dashboard;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.HorizontalAnnotation;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.logs.FilterPattern;
import software.amazon.awscdk.services.logs.ILogGroup;
import software.amazon.awscdk.services.logs.MetricFilter;
import software.constructs.Construct;

/**
 * Alarms and a dashboard for one endpoint behind a plan. Diagnostic only: nothing here changes
 * capacity.
 *
 * <ul>
 *   <li><b>First-chunk latency</b>: FirstChunkLatency p95 over 60 s above the plan's {@code
 *       first_chunk_alarm_ms} (the measured p95 TTFAB at concurrency 1) for 3 periods. SageMaker
 *       reports latencies in <em>microseconds</em>, so the threshold is {@code ms × 1000}. No
 *       {@code Unit} is set on the alarm: a unit filter that disagrees with what SageMaker
 *       publishes silently empties an alarm.
 *   <li><b>Real server errors</b>, separated from deliberate refusals. {@code Invocation5XXErrors}
 *       counts every 5xx the container returned — including its deliberate HTTP 503s ({@code
 *       queue_saturated} above Q_max, {@code deadline_shed}, {@code shutting_down}, {@code
 *       not_ready}). speech-server prints, once a second when it gave any, one JSON line {@code
 *       {"event":"deliberate_503","count":N}}; a metric filter sums {@code $.count} into {@code
 *       SpeechScale/<endpoint> DeliberateHttp503}; the alarm watches {@code FILL(5xx, 0) −
 *       FILL(deliberate, 0)} (Sum per minute) ≥ 1. It subtracts exactly the HTTP 503s: WebSocket
 *       refusals (in {@code queue_saturated}'s count) were never an HTTP 5xx, and subtracting them
 *       hid real errors.
 *   <li><b>Sustained load shedding</b>: QueueSaturatedRejections Sum ≥ 1 in each of 3 minutes — the
 *       fleet is at {@code max_instances} or scale-out is not keeping up.
 *   <li>A dashboard: ConcurrentRequestsPerModel Maximum (10 s) against the scaling target and the
 *       scale-in alarm's statistic and period (scale_in_alarm) against the scale-in threshold,
 *       FirstChunkLatency p95 against its alarm, and invocations, 4xx, 5xx, shed and real 5xx.
 * </ul>
 */
public final class EndpointObservability extends Construct {
  /**
   * A metric filter that sums the {@code count} of the container's {@code {"event":EVENT,...}}
   * lines into {@code SpeechScale/<endpoint> METRIC}, and that metric as a per-minute Sum.
   */
  private Metric countedLogEvent(
      String id, ILogGroup logs, String event, String endpointName, String metricName) {
    MetricFilter.Builder.create(this, id)
        .logGroup(logs)
        .filterPattern(FilterPattern.stringValue("$.event", "=", event))
        .metricNamespace(AwsNames.shedNamespace(endpointName))
        .metricName(metricName)
        .metricValue("$.count")
        .defaultValue(0)
        .build();
    return Metric.Builder.create()
        .namespace(AwsNames.shedNamespace(endpointName))
        .metricName(metricName)
        .statistic("Sum")
        .period(MINUTE)
        .build();
  }

  private static final Duration MINUTE = Duration.minutes(1);

  private final Dashboard dashboard;

  EndpointObservability(
      Construct scope,
      String id,
      AwsEndpointSpec spec,
      ScalingGate.Decision.Attach attach,
      ILogGroup containerLogs) {
    super(scope, id);
    EndpointConfig effective = attach.effective();
    String endpointName = spec.endpointName();

    Metric shed =
        countedLogEvent(
            "QueueSaturatedFilter",
            containerLogs,
            "queue_saturated",
            endpointName,
            AwsNames.QUEUE_SATURATED_METRIC);
    Metric deliberate =
        countedLogEvent(
            "Deliberate503Filter",
            containerLogs,
            "deliberate_503",
            endpointName,
            AwsNames.DELIBERATE_503_METRIC);
    Metric errors5xx = invocationMetric(spec, "Invocation5XXErrors", "Sum");
    MathExpression realErrors =
        MathExpression.Builder.create()
            .expression("FILL(errors, 0) - FILL(deliberate, 0)")
            .usingMetrics(Ordered.<IMetric>map("errors", errors5xx, "deliberate", deliberate))
            .period(MINUTE)
            .label("5xx that are not deliberate 503s")
            .build();

    Double firstChunkMs = attach.plan().firstChunkAlarmMs();
    Metric firstChunk = invocationMetric(spec, "FirstChunkLatency", "p95");
    if (firstChunkMs != null) {
      Alarm.Builder.create(this, "FirstChunkLatencyAlarm")
          .alarmName(AwsNames.firstChunkAlarm(endpointName))
          .alarmDescription(
              String.format(
                  Locale.ROOT,
                  "FirstChunkLatency p95 above %.1f ms (%d µs; SageMaker latencies are"
                      + " microseconds), the plan's measured p95 TTFAB at concurrency 1: an"
                      + " instance is serving slower than when it was measured",
                  firstChunkMs,
                  microseconds(firstChunkMs)))
          .metric(firstChunk)
          .threshold(microseconds(firstChunkMs))
          .comparisonOperator(ComparisonOperator.GREATER_THAN_THRESHOLD)
          .evaluationPeriods(3)
          .datapointsToAlarm(3)
          .treatMissingData(TreatMissingData.NOT_BREACHING)
          .build();
    }
    Alarm.Builder.create(this, "ServerErrorsAlarm")
        .alarmName(AwsNames.serverErrorAlarm(endpointName))
        .alarmDescription(
            "Invocation5XXErrors minus the container's deliberate HTTP 503s (queue_saturated,"
                + " deadline_shed, shutting_down, not_ready): a real server error, not a refusal")
        .metric(realErrors)
        .threshold(1)
        .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
        .evaluationPeriods(1)
        .treatMissingData(TreatMissingData.NOT_BREACHING)
        .build();
    Alarm.Builder.create(this, "LoadSheddingAlarm")
        .alarmName(AwsNames.loadSheddingAlarm(endpointName))
        .alarmDescription(
            "The container refused requests above queue_max_depth ("
                + effective.queueMaxDepth()
                + ") in each of 3 minutes: the fleet is at max_instances ("
                + effective.maxInstances()
                + ") or scale-out is not keeping up")
        .metric(shed)
        .threshold(1)
        .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
        .evaluationPeriods(3)
        .datapointsToAlarm(3)
        .treatMissingData(TreatMissingData.NOT_BREACHING)
        .build();

    dashboard =
        Dashboard.Builder.create(this, "Dashboard")
            .dashboardName(AwsNames.dashboard(endpointName))
            .build();
    dashboard.addWidgets(
        graph(
            MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName()
                + " Maximum (10 s) vs scaling target",
            List.of(EndpointAutoscaling.concurrency(spec, "Maximum", Duration.seconds(10))),
            annotation(
                attached(effective.scalingTargetValue(), "scaling_target_value"),
                "scaling_target_value")),
        graph(
            String.format(
                Locale.ROOT,
                MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName()
                    + " %s (%d s) vs scale-in threshold",
                effective.scaleInAlarmOrDefault().statistic(),
                effective.scaleInAlarmOrDefault().periodS()),
            List.of(
                EndpointAutoscaling.concurrency(
                    spec,
                    effective.scaleInAlarmOrDefault().statistic(),
                    Duration.seconds(effective.scaleInAlarmOrDefault().periodS()))),
            annotation(
                attached(effective.scaleInThreshold(), "scale_in_threshold"),
                "scale_in_threshold")));
    dashboard.addWidgets(
        graph(
            "FirstChunkLatency p95 (µs)",
            List.of(labelled(firstChunk, "FirstChunkLatency p95 (µs)")),
            firstChunkMs == null
                ? null
                : annotation((double) microseconds(firstChunkMs), "first_chunk_alarm (µs)")),
        graph(
            "Invocations and errors (per minute)",
            List.of(
                labelled(invocationMetric(spec, "Invocations", "Sum"), "invocations"),
                labelled(invocationMetric(spec, "Invocation4XXErrors", "Sum"), "4xx"),
                labelled(errors5xx, "all 5xx"),
                labelled(shed, "503 queue_saturated (load shedding)"),
                realErrors),
            null));
  }

  /** Whole microseconds of a millisecond value: SageMaker's latency unit. */
  static long microseconds(double ms) {
    return Math.round(ms * 1000.0);
  }

  /**
   * A SageMaker invocation metric. No label: a labelled metric renders as a metric-math alarm, not
   * a plain one.
   */
  private static Metric invocationMetric(AwsEndpointSpec spec, String name, String statistic) {
    return Metric.Builder.create()
        .namespace(AwsNames.SAGEMAKER_NAMESPACE)
        .metricName(name)
        .dimensionsMap(EndpointAutoscaling.dimensions(spec))
        .statistic(statistic)
        .period(MINUTE)
        .build();
  }

  private static IMetric labelled(Metric metric, String label) {
    return metric.with(MetricOptions.builder().label(label).build());
  }

  /** An attached plan's effective config has every scaling figure; the gate guarantees it. */
  private static double attached(@Nullable Double value, String field) {
    if (value == null) {
      throw new IllegalStateException(
          "an attached scaling decision has no " + field + "; ScalingGate fills it from the plan");
    }
    return value;
  }

  private static HorizontalAnnotation annotation(double value, String label) {
    return HorizontalAnnotation.builder().value(value).label(label).build();
  }

  private static GraphWidget graph(
      String title, List<? extends IMetric> left, @Nullable HorizontalAnnotation annotation) {
    GraphWidget.Builder b = GraphWidget.Builder.create().title(title).width(12).left(left);
    if (annotation != null) {
      b.leftAnnotations(List.of(annotation));
    }
    return b.build();
  }

  public Dashboard dashboard() {
    return dashboard;
  }
}
