package dev.speechscale.platform.aws;

import dev.speechscale.platform.InstanceLog;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.services.cloudwatchlogs.model.DescribeLogStreamsRequest;
import software.amazon.awssdk.services.cloudwatchlogs.model.DescribeLogStreamsResponse;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetLogEventsRequest;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetLogEventsResponse;
import software.amazon.awssdk.services.cloudwatchlogs.model.LogStream;
import software.amazon.awssdk.services.cloudwatchlogs.model.OutputLogEvent;

/**
 * Per-instance startup logs: SageMaker writes each instance's container output to its own stream
 * ({@code <variant>/<instance-id>}) in {@code /aws/sagemaker/Endpoints/<endpoint>}. A stream's
 * first event timestamp is when the instance's log first appeared — an upper bound on provisioning.
 */
final class InstanceLogReader {
  private final AwsApis.LogsApi logs;

  InstanceLogReader(AwsApis.LogsApi logs) {
    this.logs = logs;
  }

  /** Every stream whose first event is at or after {@code since}, oldest first. */
  List<InstanceLog> read(String group, Instant since) {
    List<LogStream> streams = new ArrayList<>();
    AwsErrors.eachPage(
        "DescribeLogStreams",
        "log group " + group,
        token ->
            logs.describeLogStreams(
                DescribeLogStreamsRequest.builder().logGroupName(group).nextToken(token).build()),
        DescribeLogStreamsResponse::nextToken,
        page -> {
          for (LogStream s : page.logStreams()) {
            if (s.firstEventTimestamp() != null
                && s.firstEventTimestamp() >= since.toEpochMilli()) {
              streams.add(s);
            }
          }
        });
    streams.sort(
        Comparator.comparing(LogStream::firstEventTimestamp)
            .thenComparing(LogStream::logStreamName));
    List<InstanceLog> out = new ArrayList<>();
    for (LogStream s : streams) {
      out.add(
          new InstanceLog(
              instanceId(s.logStreamName()),
              Instant.ofEpochMilli(s.firstEventTimestamp()),
              lines(group, s.logStreamName())));
    }
    return out;
  }

  private List<InstanceLog.LogLine> lines(String group, String stream) {
    List<InstanceLog.LogLine> lines = new ArrayList<>();
    String token = null;
    while (true) {
      GetLogEventsRequest request =
          GetLogEventsRequest.builder()
              .logGroupName(group)
              .logStreamName(stream)
              .startFromHead(true)
              .nextToken(token)
              .build();
      GetLogEventsResponse page =
          AwsErrors.call(
              "GetLogEvents",
              "log stream " + group + "/" + stream,
              () -> logs.getLogEvents(request));
      for (OutputLogEvent e : page.events()) {
        lines.add(new InstanceLog.LogLine(Instant.ofEpochMilli(e.timestamp()), strip(e.message())));
      }
      // GetLogEvents signals the end by returning the token it was given.
      if (page.nextForwardToken() == null || Objects.equals(page.nextForwardToken(), token)) {
        return lines;
      }
      token = page.nextForwardToken();
    }
  }

  /** {@code AllTraffic/i-0abc} → {@code i-0abc}. */
  static String instanceId(String streamName) {
    int slash = streamName.indexOf('/');
    return slash < 0 ? streamName : streamName.substring(slash + 1);
  }

  /** Drops one trailing line terminator, so a stage marker parses byte for byte. */
  static String strip(String message) {
    if (message.endsWith("\r\n")) {
      return message.substring(0, message.length() - 2);
    }
    if (message.endsWith("\n")) {
      return message.substring(0, message.length() - 1);
    }
    return message;
  }
}
