package dev.speechscale.platform.local;

import dev.speechscale.platform.PlatformException;
import java.time.Instant;
import java.util.Locale;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the AWS-shaped control plane's operations share: the account and region it answers as, the
 * ARNs it builds, the names the endpoint stack gives an endpoint's config, model, variant and log
 * group, and how a local platform error becomes the AWS error a service would answer.
 *
 * @param region the region the control plane answers as (and the SigV4 scope it accepts)
 * @param account the account id in every ARN
 */
record AwsWire(String region, String account) {
  /** The one variant a SpeechScale endpoint has. */
  static final String VARIANT = "AllTraffic";

  /** The account the local control plane answers as: none of a real account's. */
  static final String LOCAL_ACCOUNT = "000000000000";

  static final JsonMapper JSON = JsonMapper.builder().build();

  String arn(String service, String resource) {
    return "arn:aws:" + service + ":" + region + ":" + account + ":" + resource;
  }

  String endpointArn(String endpoint) {
    return arn("sagemaker", "endpoint/" + endpoint.toLowerCase(Locale.ROOT));
  }

  static String configName(String endpoint) {
    return endpoint + "-config";
  }

  static String modelName(String endpoint) {
    return endpoint + "-model";
  }

  static String resourceId(String endpoint) {
    return "endpoint/" + endpoint + "/variant/" + VARIANT;
  }

  static String logGroup(String endpoint) {
    return "/aws/sagemaker/Endpoints/" + endpoint;
  }

  /** The endpoint of {@code endpoint/NAME/variant/AllTraffic}, or null for any other id. */
  static @org.jspecify.annotations.Nullable String endpointOfResourceId(String resourceId) {
    String prefix = "endpoint/";
    String suffix = "/variant/" + VARIANT;
    if (!resourceId.startsWith(prefix) || !resourceId.endsWith(suffix)) {
      return null;
    }
    String name = resourceId.substring(prefix.length(), resourceId.length() - suffix.length());
    return name.isEmpty() || name.contains("/") ? null : name;
  }

  /** A timestamp as AWS JSON 1.1 carries it: epoch seconds with a fraction. */
  static double epochSeconds(Instant t) {
    return t.toEpochMilli() / 1000.0;
  }

  /**
   * A required string member; missing, it is refused as the services refuse it ("1 validation error
   * detected: Value null at 'endpointName' failed to satisfy constraint: Member must not be null").
   */
  static String required(JsonNode in, String member) {
    JsonNode v = in.get(member);
    if (v == null || v.isNull() || v.asString().isEmpty()) {
      throw AwsWireError.validation(
          "1 validation error detected: Value null at '"
              + Character.toLowerCase(member.charAt(0))
              + member.substring(1)
              + "' failed to satisfy constraint: Member must not be null");
    }
    return v.asString();
  }

  /**
   * A local platform error as the AWS service would answer it: throttling as {@code
   * ThrottlingException} (400, the code SageMaker and Application Auto Scaling use), an unknown
   * endpoint as {@code notFound}, bad input as {@code ValidationException}, an unreachable
   * supervisor as 503 {@code ServiceUnavailable}.
   */
  static AwsWireError map(PlatformException e, AwsWireError notFound) {
    return switch (e.reason()) {
      case PlatformException.Reason.NotFound n -> notFound;
      case PlatformException.Reason.Throttled t ->
          new AwsWireError(400, "ThrottlingException", "Rate exceeded");
      case PlatformException.Reason.QuotaExceeded q ->
          new AwsWireError(400, "ResourceLimitExceeded", q.message());
      case PlatformException.Reason.InvalidRequest r -> AwsWireError.validation(r.message());
      case PlatformException.Reason.MissingCredentials m ->
          new AwsWireError(400, "UnrecognizedClientException", m.message());
      case PlatformException.Reason.Unavailable u ->
          new AwsWireError(503, "ServiceUnavailable", u.message());
    };
  }

  /** Text escaped for an XML element. */
  static String xml(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
