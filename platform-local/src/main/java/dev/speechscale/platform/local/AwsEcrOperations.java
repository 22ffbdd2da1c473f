package dev.speechscale.platform.local;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one Amazon ECR operation {@code bin/image push} calls, answered in AWS JSON 1.1 ({@code
 * X-Amz-Target: AmazonEC2ContainerRegistry_V20150921.<Operation>}, lower-camel members, SigV4
 * signing name {@code ecr}):
 *
 * <ul>
 *   <li>GetAuthorizationToken —
 *       https://docs.aws.amazon.com/AmazonECR/latest/APIReference/API_GetAuthorizationToken.html :
 *       one {@code authorizationData} entry whose {@code authorizationToken} is the base64 of
 *       {@code user:password} (on AWS the user is always {@code AWS}), the {@code proxyEndpoint} to
 *       log in to ({@code https://ACCOUNT.dkr.ecr.REGION.amazonaws.com} on AWS) and {@code
 *       expiresAt}, 12 hours on, as the reference states. The deprecated {@code registryIds} member
 *       is ignored.
 * </ul>
 *
 * <p>The local platform has no registry of its own: what it hands out is the {@link
 * AwsControlPlane.EcrRegistry} the plane was started with, so a test can run a real registry
 * (Debian's {@code docker-registry} with an htpasswd file for exactly these credentials) and have
 * the real SDK's token open it.
 */
final class AwsEcrOperations {
  /** ECR's authorization tokens are valid for 12 hours (the API reference above). */
  static final Duration TOKEN_LIFETIME = Duration.ofHours(12);

  private final AwsControlPlane.EcrRegistry registry;
  private final Clock clock;

  AwsEcrOperations(AwsControlPlane.EcrRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
  }

  ObjectNode call(String operation, JsonNode in) {
    return switch (operation) {
      case "GetAuthorizationToken" -> getAuthorizationToken();
      default -> throw AwsControlPlane.unknownOperation("ECR", operation);
    };
  }

  private ObjectNode getAuthorizationToken() {
    String token =
        Base64.getEncoder()
            .encodeToString(
                (registry.user() + ":" + registry.password()).getBytes(StandardCharsets.UTF_8));
    ObjectNode out = AwsWire.JSON.createObjectNode();
    out.putArray("authorizationData")
        .addObject()
        .put("authorizationToken", token)
        .put("expiresAt", AwsWire.epochSeconds(clock.instant().plus(TOKEN_LIFETIME)))
        .put("proxyEndpoint", registry.proxyEndpoint().toString());
    return out;
  }
}
