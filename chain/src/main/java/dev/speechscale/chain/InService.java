package dev.speechscale.chain;

import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.Platform;

/** The check a live step makes before it sends load: the endpoint is InService. */
final class InService {
  private InService() {}

  /**
   * The endpoint's description, when it is InService.
   *
   * @param otherwise what the refusal says after {@code <endpoint> is <status>}: the fix
   * @throws ChainException when it is not InService
   */
  static EndpointDescription require(Platform platform, String endpoint, String otherwise) {
    EndpointDescription d = platform.describe(endpoint);
    if (d.status() != EndpointStatus.IN_SERVICE) {
      throw new ChainException(endpoint + " is " + d.status() + otherwise);
    }
    return d;
  }
}
