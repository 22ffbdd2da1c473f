package dev.speechscale.platform.aws;

import dev.speechscale.platform.PlatformException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * A registry login as ECR's {@code GetAuthorizationToken} hands it out
 * (https://docs.aws.amazon.com/AmazonECR/latest/APIReference/API_GetAuthorizationToken.html): the
 * base64 {@code user:password} token decoded, the registry to log in to and when the token expires.
 *
 * @param proxyEndpoint the registry, {@code https://ACCOUNT.dkr.ecr.REGION.amazonaws.com} on AWS
 * @param user the registry user ({@code AWS} on ECR)
 * @param password the password; never printed ({@link #toString()} leaves it out)
 * @param expiresAt when ECR stops accepting it (12 hours after it was issued)
 */
record RegistryToken(URI proxyEndpoint, String user, String password, Instant expiresAt) {

  /**
   * Decodes ECR's {@code authorizationToken}: the base64 of {@code user:password}, split at the
   * first colon as the API reference describes.
   */
  static RegistryToken decode(String token, String proxyEndpoint, Instant expiresAt) {
    String plain;
    try {
      plain = new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw malformed("its authorizationToken is not base64");
    }
    int colon = plain.indexOf(':');
    if (colon <= 0) {
      throw malformed("its authorizationToken is not USER:PASSWORD in base64");
    }
    URI endpoint;
    try {
      endpoint =
          URI.create(proxyEndpoint.contains("://") ? proxyEndpoint : "https://" + proxyEndpoint);
    } catch (IllegalArgumentException e) {
      throw malformed("its proxyEndpoint '" + proxyEndpoint + "' is not a URL");
    }
    if (endpoint.getHost() == null) {
      throw malformed("its proxyEndpoint '" + proxyEndpoint + "' names no host");
    }
    return new RegistryToken(
        endpoint, plain.substring(0, colon), plain.substring(colon + 1), expiresAt);
  }

  private static PlatformException malformed(String why) {
    return new PlatformException(
        new PlatformException.Reason.Unavailable(
            "ECR's GetAuthorizationToken answer cannot be used: "
                + why
                + "; run the command again (an endpoint given with --endpoint-url must answer as"
                + " ECR does)"));
  }

  /** The registry as podman names it: {@code host} or {@code host:port}. */
  String registry() {
    return proxyEndpoint.getPort() < 0
        ? proxyEndpoint.getHost()
        : proxyEndpoint.getHost() + ":" + proxyEndpoint.getPort();
  }

  /**
   * False for a plain-HTTP registry ({@code http://}, a loopback test registry): no TLS to verify.
   */
  boolean tls() {
    return !"http".equalsIgnoreCase(proxyEndpoint.getScheme());
  }

  @Override
  public String toString() {
    return "RegistryToken[" + user + "@" + proxyEndpoint + ", expires " + expiresAt + "]";
  }
}
