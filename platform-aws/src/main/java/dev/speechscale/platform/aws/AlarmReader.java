package dev.speechscale.platform.aws;

import dev.speechscale.platform.Alarm;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import software.amazon.awssdk.services.cloudwatch.model.DescribeAlarmsRequest;
import software.amazon.awssdk.services.cloudwatch.model.DescribeAlarmsResponse;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;

/** Reads the alarms scaling policies use, by name, in batches of 100 (DescribeAlarms' limit). */
final class AlarmReader {
  private static final int BATCH = 100;

  private final AwsApis.CloudWatchApi cloudWatch;

  AlarmReader(AwsApis.CloudWatchApi cloudWatch) {
    this.cloudWatch = cloudWatch;
  }

  List<Alarm> read(List<String> names) {
    List<String> unique = List.copyOf(new LinkedHashSet<>(names));
    List<Alarm> out = new ArrayList<>();
    for (int from = 0; from < unique.size(); from += BATCH) {
      List<String> batch = unique.subList(from, Math.min(unique.size(), from + BATCH));
      AwsErrors.eachPage(
          "DescribeAlarms",
          "alarms " + batch,
          token ->
              cloudWatch.describeAlarms(
                  DescribeAlarmsRequest.builder()
                      .alarmNames(batch)
                      .maxRecords(BATCH)
                      .nextToken(token)
                      .build()),
          DescribeAlarmsResponse::nextToken,
          page -> {
            for (MetricAlarm a : page.metricAlarms()) {
              out.add(ScalingMapper.alarm(a));
            }
          });
    }
    return out;
  }
}
