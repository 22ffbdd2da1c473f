package dev.speechscale.platform;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * Where and how an invoker sends requests.
 *
 * @param transport which transport
 * @param endpointName the endpoint's name (for the runtime API's path)
 * @param baseUri the container or router base ({@code http://127.0.0.1:8080}) for http-stream and
 *     bidi; the SageMaker Runtime endpoint (or its local stand-in) for response-stream
 * @param region the AWS region for response-stream (any value works against the local runtime)
 * @param requestTimeout how long one request may take before it is a transport error
 * @param clock the clock requests are timed on
 * @param options transport-specific settings (credentials profile, ...)
 */
public record InvokerTarget(
    Transport transport,
    String endpointName,
    URI baseUri,
    String region,
    Duration requestTimeout,
    NanoClock clock,
    Map<String, String> options) {
  public InvokerTarget {
    options = options == null ? Map.of() : Map.copyOf(options);
  }
}
