package dev.speechscale.platform.local;

import dev.speechscale.platform.InstanceLog;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The CloudWatch Logs operations the AWS adapter calls, answered in AWS JSON 1.1 ({@code
 * X-Amz-Target: Logs_20140328.<Operation>}, lower-camel members) from the local instances' captured
 * stdout: the log group is {@code /aws/sagemaker/Endpoints/<endpoint>} and each instance is one
 * stream, {@code AllTraffic/<instance-id>}, as SageMaker names them.
 *
 * <ul>
 *   <li>DescribeLogStreams —
 *       https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_DescribeLogStreams.html
 *       : every stream with its first and last event time; one page.
 *   <li>GetLogEvents —
 *       https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_GetLogEvents.html
 *       : events from the head (or the token's position), at most {@code limit} (default 10,000)
 *       per page; as the reference says, the end of the stream is signalled by returning the token
 *       that was passed in.
 * </ul>
 */
record AwsLogsOperations(Platform backend, AwsWire wire) {
  private static final int DEFAULT_LIMIT = 10_000;
  private static final String GROUP_PREFIX = "/aws/sagemaker/Endpoints/";

  ObjectNode call(String operation, JsonNode in) {
    return switch (operation) {
      case "DescribeLogStreams" -> describeLogStreams(in);
      case "GetLogEvents" -> getLogEvents(in);
      default -> throw AwsControlPlane.unknownOperation("CloudWatchLogs", operation);
    };
  }

  private static AwsWireError noGroup() {
    return new AwsWireError(
        400, "ResourceNotFoundException", "The specified log group does not exist.");
  }

  private List<InstanceLog> logs(String group) {
    if (!group.startsWith(GROUP_PREFIX) || group.length() == GROUP_PREFIX.length()) {
      throw noGroup();
    }
    try {
      return backend.instanceLogs(group.substring(GROUP_PREFIX.length()), Instant.EPOCH);
    } catch (PlatformException e) {
      throw AwsWire.map(e, noGroup());
    }
  }

  private static String stream(InstanceLog log) {
    return AwsWire.VARIANT + "/" + log.instanceId();
  }

  private ObjectNode describeLogStreams(JsonNode in) {
    String group = AwsWire.required(in, "logGroupName");
    String prefix = in.path("logStreamNamePrefix").asString();
    ObjectNode out = AwsWire.JSON.createObjectNode();
    ArrayNode streams = out.putArray("logStreams");
    for (InstanceLog log : logs(group)) {
      if (!stream(log).startsWith(prefix)) {
        continue;
      }
      long first = log.firstEventAt().toEpochMilli();
      long last = log.lines().isEmpty() ? first : log.lines().getLast().at().toEpochMilli();
      ObjectNode s = streams.addObject();
      s.put("logStreamName", stream(log));
      s.put("creationTime", first);
      s.put("firstEventTimestamp", first);
      s.put("lastEventTimestamp", last);
      s.put("lastIngestionTime", last);
      s.put("arn", wire.arn("logs", "log-group:" + group + ":log-stream:" + stream(log)));
      s.put("storedBytes", 0);
    }
    return out;
  }

  private ObjectNode getLogEvents(JsonNode in) {
    String group = AwsWire.required(in, "logGroupName");
    String name = AwsWire.required(in, "logStreamName");
    InstanceLog log =
        logs(group).stream()
            .filter(l -> stream(l).equals(name))
            .findFirst()
            .orElseThrow(() ->
                new AwsWireError(
                    400, "ResourceNotFoundException", "The specified log stream does not exist."));
    String token = in.path("nextToken").asString();
    int from = position(token);
    int limit = in.has("limit") ? Math.max(1, in.get("limit").asInt()) : DEFAULT_LIMIT;
    List<InstanceLog.LogLine> lines = log.lines();
    int start = Math.min(from, lines.size());
    int to = Math.min(lines.size(), start + limit);
    ObjectNode out = AwsWire.JSON.createObjectNode();
    ArrayNode events = out.putArray("events");
    for (InstanceLog.LogLine line : lines.subList(start, to)) {
      long at = line.at().toEpochMilli();
      events
          .addObject()
          .put("timestamp", at)
          .put("message", line.message())
          .put("ingestionTime", at);
    }
    out.put("nextForwardToken", to == start && !token.isEmpty() ? token : forward(to));
    out.put("nextBackwardToken", String.format(Locale.ROOT, "b/%056d", start));
    return out;
  }

  private static String forward(int position) {
    return String.format(Locale.ROOT, "f/%056d", position);
  }

  private static int position(String token) {
    if (token.isEmpty()) {
      return 0;
    }
    try {
      if (!token.startsWith("f/")) {
        throw new NumberFormatException(token);
      }
      return Integer.parseInt(token.substring(2));
    } catch (NumberFormatException e) {
      throw new AwsWireError(
          400, "InvalidParameterException", "The specified nextToken is invalid: " + token);
    }
  }
}
