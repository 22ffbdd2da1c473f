package dev.speechscale.platform.aws;

import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import software.amazon.awssdk.services.cloudwatch.model.Dimension;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataRequest;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataResponse;
import software.amazon.awssdk.services.cloudwatch.model.Metric;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataQuery;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataResult;
import software.amazon.awssdk.services.cloudwatch.model.MetricStat;
import software.amazon.awssdk.services.cloudwatch.model.ScanBy;

/**
 * One SageMaker invocation metric of an endpoint's variant through GetMetricData, which serves
 * high-resolution (10 s) periods and percentiles alike. Values are in CloudWatch's units (latencies
 * in microseconds).
 */
final class MetricReader {
  private final AwsApis.CloudWatchApi cloudWatch;

  MetricReader(AwsApis.CloudWatchApi cloudWatch) {
    this.cloudWatch = cloudWatch;
  }

  MetricSeries read(String endpoint, String variant, MetricQuery query) {
    MetricDataQuery q =
        MetricDataQuery.builder()
            .id("m0")
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
                    .stat(ScalingMapper.cloudWatchName(query.statistic()))
                    .build())
            .build();
    List<MetricSeries.Datapoint> points = new ArrayList<>();
    String token = null;
    do {
      GetMetricDataRequest request =
          GetMetricDataRequest.builder()
              .metricDataQueries(q)
              .startTime(query.start())
              .endTime(query.end())
              .scanBy(ScanBy.TIMESTAMP_ASCENDING)
              .nextToken(token)
              .build();
      GetMetricDataResponse page =
          AwsErrors.call(
              "GetMetricData",
              query.metric().cloudWatchName() + " of " + endpoint,
              () -> cloudWatch.getMetricData(request));
      for (MetricDataResult r : page.metricDataResults()) {
        List<Instant> at = r.timestamps();
        List<Double> values = r.values();
        for (int i = 0; i < Math.min(at.size(), values.size()); i++) {
          points.add(new MetricSeries.Datapoint(at.get(i), values.get(i)));
        }
      }
      token = page.nextToken();
    } while (token != null);
    points.sort(Comparator.comparing(MetricSeries.Datapoint::at));
    return new MetricSeries(query, points);
  }
}
