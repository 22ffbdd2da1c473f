package dev.speechscale.platform.local;

import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformException;
import java.time.Clock;
import java.util.OptionalInt;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The SageMaker operations the AWS adapter calls, answered in AWS JSON 1.1 ({@code X-Amz-Target:
 * SageMaker.<Operation>}) from the local endpoint behind {@link Platform}:
 *
 * <ul>
 *   <li>DescribeEndpoint —
 *       https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_DescribeEndpoint.html :
 *       status, the variant's desired and current instance counts (the supervisor's), the image
 *       resolved to the deployment's digest.
 *   <li>DescribeEndpointConfig —
 *       https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_DescribeEndpointConfig.html :
 *       {@code <endpoint>-config}, one variant with the instance type and {@code <endpoint>-model}.
 *   <li>DescribeModel —
 *       https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_DescribeModel.html : the
 *       container environment the instances run with, plus {@code MAX_QUEUE_DEPTH}.
 *   <li>UpdateEndpointWeightsAndCapacities —
 *       https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_UpdateEndpointWeightsAndCapacities.html
 *       : sets the supervisor's desired count. As SageMaker documents ("the endpoint status is
 *       Updating ... you cannot call UpdateEndpoint ... on an endpoint that is being updated"), a
 *       change sent while the endpoint is not {@code InService} is refused with {@code
 *       ValidationException} "Cannot update in-progress endpoint".
 * </ul>
 *
 * A name this state directory does not hold is answered as SageMaker answers it: {@code
 * ValidationException} "Could not find endpoint ...".
 */
final class AwsSageMakerOperations {
  private final Platform backend;
  private final AwsWire wire;
  private final Clock clock;

  /** One capacity change at a time: the status check and the change are one step. */
  private final Object updates = new Object();

  AwsSageMakerOperations(Platform backend, AwsWire wire, Clock clock) {
    this.backend = backend;
    this.wire = wire;
    this.clock = clock;
  }

  ObjectNode call(String operation, JsonNode in) {
    return switch (operation) {
      case "DescribeEndpoint" -> describeEndpoint(AwsWire.required(in, "EndpointName"));
      case "DescribeEndpointConfig" ->
          describeEndpointConfig(AwsWire.required(in, "EndpointConfigName"));
      case "DescribeModel" -> describeModel(AwsWire.required(in, "ModelName"));
      case "UpdateEndpointWeightsAndCapacities" -> updateCapacity(in);
      default -> throw AwsControlPlane.unknownOperation("SageMaker", operation);
    };
  }

  /** SageMaker's name for a status (EndpointStatus in the API reference). */
  static String status(EndpointStatus s) {
    return switch (s) {
      case CREATING -> "Creating";
      case IN_SERVICE -> "InService";
      case UPDATING -> "Updating";
      case SYSTEM_UPDATING -> "SystemUpdating";
      case ROLLING_BACK -> "RollingBack";
      case OUT_OF_SERVICE -> "OutOfService";
      case DELETING -> "Deleting";
      case FAILED -> "Failed";
    };
  }

  private AwsWireError noEndpoint(String name) {
    return AwsWireError.validation("Could not find endpoint \"" + wire.endpointArn(name) + "\".");
  }

  private EndpointDescription describe(String endpoint) {
    return describe(endpoint, noEndpoint(endpoint));
  }

  private EndpointDescription describe(String endpoint, AwsWireError notFound) {
    try {
      return backend.describe(endpoint);
    } catch (PlatformException e) {
      throw AwsWire.map(e, notFound);
    }
  }

  private Fingerprint fingerprint(String endpoint, AwsWireError notFound) {
    try {
      return backend.fingerprint(endpoint);
    } catch (PlatformException e) {
      throw AwsWire.map(e, notFound);
    }
  }

  /** The image a local deployment stands for: pinned by its digest when it has one. */
  private static String image(Fingerprint f) {
    String repository = "local/speech-server";
    return f.imageDigest() == null
        ? repository + ":latest"
        : repository + "@sha256:" + f.imageDigest();
  }

  private ObjectNode describeEndpoint(String endpoint) {
    EndpointDescription d = describe(endpoint);
    Fingerprint f = fingerprint(endpoint, noEndpoint(endpoint));
    double now = AwsWire.epochSeconds(clock.instant());
    ObjectNode out = AwsWire.JSON.createObjectNode();
    out.put("EndpointName", endpoint);
    out.put("EndpointArn", wire.endpointArn(endpoint));
    out.put("EndpointConfigName", AwsWire.configName(endpoint));
    out.put("EndpointStatus", status(d.status()));
    out.put("CreationTime", now);
    out.put("LastModifiedTime", now);
    ObjectNode v = out.putArray("ProductionVariants").addObject();
    v.put("VariantName", AwsWire.VARIANT);
    ObjectNode image = v.putArray("DeployedImages").addObject();
    image.put("SpecifiedImage", image(f));
    image.put("ResolvedImage", image(f));
    image.put("ResolutionTime", now);
    v.put("CurrentWeight", 1.0);
    v.put("DesiredWeight", 1.0);
    v.put("CurrentInstanceCount", d.currentInstances());
    v.put("DesiredInstanceCount", d.desiredInstances());
    try {
      backend.failureReason(endpoint).ifPresent(r -> out.put("FailureReason", r));
    } catch (PlatformException e) {
      throw AwsWire.map(e, noEndpoint(endpoint));
    }
    return out;
  }

  private ObjectNode describeEndpointConfig(String name) {
    AwsWireError notFound =
        AwsWireError.validation("Could not find endpoint configuration \"" + name + "\".");
    String endpoint = strip(name, "-config", notFound);
    EndpointDescription d = describe(endpoint, notFound);
    ObjectNode out = AwsWire.JSON.createObjectNode();
    out.put("EndpointConfigName", name);
    out.put("EndpointConfigArn", wire.arn("sagemaker", "endpoint-config/" + name));
    ObjectNode v = out.putArray("ProductionVariants").addObject();
    v.put("VariantName", AwsWire.VARIANT);
    v.put("ModelName", AwsWire.modelName(endpoint));
    v.put("InitialInstanceCount", d.desiredInstances());
    v.put("InstanceType", d.instanceType());
    v.put("InitialVariantWeight", 1.0);
    v.putObject("RoutingConfig").put("RoutingStrategy", "LEAST_OUTSTANDING_REQUESTS");
    out.put("CreationTime", AwsWire.epochSeconds(clock.instant()));
    return out;
  }

  private ObjectNode describeModel(String name) {
    AwsWireError notFound = AwsWireError.validation("Could not find model \"" + name + "\".");
    String endpoint = strip(name, "-model", notFound);
    Fingerprint f = fingerprint(endpoint, notFound);
    OptionalInt bound;
    try {
      bound = backend.containerQueueBound(endpoint);
    } catch (PlatformException e) {
      throw AwsWire.map(e, notFound);
    }
    ObjectNode out = AwsWire.JSON.createObjectNode();
    out.put("ModelName", name);
    out.put("ModelArn", wire.arn("sagemaker", "model/" + name));
    ObjectNode c = out.putObject("PrimaryContainer");
    c.put("Image", image(f));
    c.put("Mode", "SingleModel");
    ObjectNode env = c.putObject("Environment");
    f.containerEnv().forEach(env::put);
    bound.ifPresent(b -> env.put("MAX_QUEUE_DEPTH", Integer.toString(b)));
    out.put("ExecutionRoleArn", "arn:aws:iam::" + wire.account() + ":role/speech-local-execution");
    out.put("CreationTime", AwsWire.epochSeconds(clock.instant()));
    return out;
  }

  private static String strip(String name, String suffix, AwsWireError notFound) {
    if (!name.endsWith(suffix) || name.length() == suffix.length()) {
      throw notFound;
    }
    return name.substring(0, name.length() - suffix.length());
  }

  private ObjectNode updateCapacity(JsonNode in) {
    String endpoint = AwsWire.required(in, "EndpointName");
    JsonNode wanted = in.path("DesiredWeightsAndCapacities").path(0);
    String variant = wanted.path("VariantName").asString();
    synchronized (updates) {
      EndpointDescription d = describe(endpoint);
      if (!variant.equals(AwsWire.VARIANT)) {
        throw AwsWireError.validation(
            "The variant name(s) \""
                + variant
                + "\" is/are not present in the endpoint \""
                + wire.endpointArn(endpoint)
                + "\".");
      }
      if (d.status() != EndpointStatus.IN_SERVICE) {
        throw AwsWireError.validation(
            "Cannot update in-progress endpoint \"" + wire.endpointArn(endpoint) + "\".");
      }
      JsonNode count = wanted.get("DesiredInstanceCount");
      if (count != null && !count.isNull()) {
        try {
          backend.setDesiredInstances(endpoint, count.asInt());
        } catch (PlatformException e) {
          throw AwsWire.map(e, noEndpoint(endpoint));
        }
      }
    }
    ObjectNode out = AwsWire.JSON.createObjectNode();
    out.put("EndpointArn", wire.endpointArn(endpoint));
    return out;
  }
}
