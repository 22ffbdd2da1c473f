package dev.speechscale.platform.aws;

import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.PlatformException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataRequest;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;
import software.amazon.awssdk.services.cloudwatch.model.MessageData;
import software.amazon.awssdk.services.cloudwatch.model.Metric;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataQuery;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataResult;
import software.amazon.awssdk.services.cloudwatch.model.MetricStat;
import software.amazon.awssdk.services.cloudwatch.model.ScanBy;
import software.amazon.awssdk.services.cloudwatch.model.StatusCode;

/**
 * SageMaker invocation metrics of an endpoint's variant through GetMetricData, which serves
 * high-resolution (10 s) periods and percentiles alike. Values are in CloudWatch's units (latencies
 * in microseconds).
 *
 * <p>Queries over the same time range go in one call, up to {@value #MAX_QUERIES_PER_CALL} per call
 * (the {@code MetricDataQueries} limit in the GetMetricData API reference; one call has one
 * StartTime and EndTime, so different ranges are different calls). Every call is paged through
 * {@code NextToken} to its end, and each result's {@code StatusCode} is read: {@code PartialData}
 * on the last page (no token left to fetch the rest), {@code InternalError} and {@code Forbidden}
 * are errors naming the metric and CloudWatch's messages, never a silently shorter series.
 */
final class MetricReader {
  /** GetMetricData's documented maximum of MetricDataQuery structures in one request. */
  static final int MAX_QUERIES_PER_CALL = 500;

  private final AwsApis.CloudWatchApi cloudWatch;

  MetricReader(AwsApis.CloudWatchApi cloudWatch) {
    this.cloudWatch = cloudWatch;
  }

  MetricSeries read(String endpoint, String variant, MetricQuery query) {
    return readAll(endpoint, variant, List.of(query)).getFirst();
  }

  /** One series per query, in the order given. */
  List<MetricSeries> readAll(String endpoint, String variant, List<MetricQuery> queries) {
    List<List<MetricSeries.Datapoint>> points = new ArrayList<>();
    queries.forEach(q -> points.add(new ArrayList<>()));
    Map<List<Instant>, List<Integer>> byRange =
        java.util.stream.IntStream.range(0, queries.size())
            .boxed()
            .collect(
                Collectors.groupingBy(
                    i -> List.of(queries.get(i).start(), queries.get(i).end()),
                    LinkedHashMap::new,
                    Collectors.toList()));
    for (List<Integer> sameRange : byRange.values()) {
      for (int from = 0; from < sameRange.size(); from += MAX_QUERIES_PER_CALL) {
        List<Integer> batch =
            sameRange.subList(from, Math.min(sameRange.size(), from + MAX_QUERIES_PER_CALL));
        call(endpoint, variant, queries, batch, points);
      }
    }
    List<MetricSeries> out = new ArrayList<>();
    for (int i = 0; i < queries.size(); i++) {
      List<MetricSeries.Datapoint> p = points.get(i);
      p.sort(Comparator.comparing(MetricSeries.Datapoint::at));
      out.add(new MetricSeries(queries.get(i), p));
    }
    return List.copyOf(out);
  }

  /** One batch of queries sharing a range: every page, each result to its query's points. */
  private void call(
      String endpoint,
      String variant,
      List<MetricQuery> queries,
      List<Integer> batch,
      List<List<MetricSeries.Datapoint>> points) {
    List<MetricDataQuery> dataQueries = new ArrayList<>();
    for (int i : batch) {
      dataQueries.add(dataQuery("m" + i, endpoint, variant, queries.get(i)));
    }
    MetricQuery first = queries.get(batch.getFirst());
    String subject = names(queries, batch) + " of " + endpoint;
    AwsErrors.eachPage(
        "GetMetricData",
        subject,
        token ->
            cloudWatch.getMetricData(
                GetMetricDataRequest.builder()
                    .metricDataQueries(dataQueries)
                    .startTime(first.start())
                    .endTime(first.end())
                    .scanBy(ScanBy.TIMESTAMP_ASCENDING)
                    .nextToken(token)
                    .build()),
        GetMetricDataResponse::nextToken,
        page -> {
          for (MetricDataResult r : page.metricDataResults()) {
            int index = Integer.parseInt(r.id().substring(1));
            checkStatus(r, queries.get(index), endpoint, page.nextToken() == null, page);
            List<Instant> at = r.timestamps();
            List<Double> values = r.values();
            for (int i = 0; i < Math.min(at.size(), values.size()); i++) {
              points.get(index).add(new MetricSeries.Datapoint(at.get(i), values.get(i)));
            }
          }
        });
  }

  /** A message list as {@code code: value} pairs joined by "; ". */
  private static String joined(List<MessageData> messages) {
    return messages.stream()
        .map(m -> m.code() + ": " + m.value())
        .collect(Collectors.joining("; "));
  }

  private static void checkStatus(
      MetricDataResult r,
      MetricQuery query,
      String endpoint,
      boolean lastPage,
      GetMetricDataResponse page) {
    StatusCode status = r.statusCode();
    // the SDK's status codes print as CloudWatch spells them: InternalError, Forbidden, PartialData
    String answered =
        "GetMetricData answered "
            + status
            + " for "
            + query.metric().cloudWatchName()
            + " of "
            + endpoint;
    String messages = joined(r.messages()) + joined(page.messages());
    if (status == StatusCode.INTERNAL_ERROR) {
      throw new PlatformException(
          new PlatformException.Reason.Unavailable(
              answered + " (" + messages + "); run the command again"));
    }
    if (status == StatusCode.FORBIDDEN) {
      throw new PlatformException(
          new PlatformException.Reason.InvalidRequest(
              answered
                  + " ("
                  + messages
                  + "); grant the caller cloudwatch:GetMetricData on AWS/SageMaker"));
    }
    if (status == StatusCode.PARTIAL_DATA && lastPage) {
      throw new PlatformException(
          new PlatformException.Reason.Unavailable(
              answered
                  + " with no NextToken to fetch the rest ("
                  + messages
                  + "); a shorter series would be read as a quiet endpoint, so run the command"
                  + " again"));
    }
  }

  private static String names(List<MetricQuery> queries, List<Integer> batch) {
    return batch.stream()
        .map(i -> queries.get(i).metric().cloudWatchName())
        .distinct()
        .collect(Collectors.joining(", "));
  }

  private static MetricDataQuery dataQuery(
      String id, String endpoint, String variant, MetricQuery query) {
    return MetricDataQuery.builder()
        .id(id)
        .returnData(true)
        .metricStat(
            MetricStat.builder()
                .metric(
                    Metric.builder()
                        .namespace(AwsNames.SAGEMAKER_NAMESPACE)
                        .metricName(query.metric().cloudWatchName())
                        .dimensions(
                            Dimension.builder().name("EndpointName").value(endpoint).build(),
                            Dimension.builder().name("VariantName").value(variant).build())
                        .build())
                .period((int) query.period().toSeconds())
                .stat(query.statistic().cloudWatchName())
                .build())
        .build();
  }
}
