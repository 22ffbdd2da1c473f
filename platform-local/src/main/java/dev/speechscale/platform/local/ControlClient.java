package dev.speechscale.platform.local;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.platform.PlatformException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Reaches a local endpoint's supervisor: finds it in the state directory, checks that its process
 * is the one recorded (a killed supervisor is reported, never waited for), and calls the control
 * API with short timeouts so no command hangs. A throttled call ({@code ThrottlingException}, see
 * {@link ControlServer}) surfaces as {@link PlatformException.Reason.Throttled}; this client does
 * not retry it (the chain's {@code RetryingPlatform} does).
 */
final class ControlClient {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final Path root;

  ControlClient(Path root) {
    this.root = root;
  }

  Path root() {
    return root;
  }

  /** The endpoint's record, or NotFound naming how to deploy it. */
  LocalState.EndpointRecord record(String endpoint) {
    Path dir = LocalState.endpointDir(root, endpoint);
    return LocalState.read(LocalState.endpointFile(dir), LocalState.EndpointRecord.class)
        .orElseThrow(() ->
            new PlatformException(
                new PlatformException.Reason.NotFound(
                    "local endpoint " + endpoint + " (state " + dir + ")",
                    "deploy it with `speech-infra deploy --config FILE --model "
                        + endpoint.replaceFirst("^speech-", "")
                        + "`")));
  }

  /** The endpoint's record if its supervisor is alive, else Unavailable saying what to run. */
  LocalState.EndpointRecord live(String endpoint) {
    LocalState.EndpointRecord r = record(endpoint);
    if (r.controlPort() == 0 || !LocalState.alive(r.supervisorPid(), r.supervisorStartedAt())) {
      throw new PlatformException(
          new PlatformException.Reason.Unavailable(
              "the supervisor of local endpoint "
                  + endpoint
                  + " (pid "
                  + r.supervisorPid()
                  + ") is not running; `speech-infra status --model "
                  + endpoint.replaceFirst("^speech-", "")
                  + "` cleans up its orphans, `speech-infra deploy` starts it again"));
    }
    return r;
  }

  <T> T get(String endpoint, String pathAndQuery, Class<T> type) {
    return call(endpoint, HttpRequest.newBuilder(uri(endpoint, pathAndQuery)).GET(), type);
  }

  <T> T post(String endpoint, String path, Object body, Class<T> type) {
    byte[] json = ArtifactCodec.mapper().writeValueAsBytes(body);
    return call(
        endpoint,
        HttpRequest.newBuilder(uri(endpoint, path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(json)),
        type);
  }

  private URI uri(String endpoint, String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + live(endpoint).controlPort() + pathAndQuery);
  }

  /** The control secret the supervisor wrote (0600) beside the endpoint's record. */
  private String secret(String endpoint) {
    Path file = LocalState.secretFile(LocalState.endpointDir(root, endpoint));
    try {
      return Files.readString(file).strip();
    } catch (IOException e) {
      throw new PlatformException(
          new PlatformException.Reason.Unavailable(
              "cannot read the control secret "
                  + file
                  + " ("
                  + e.getMessage()
                  + "); run speech-infra as the user who deployed the endpoint"),
          e);
    }
  }

  private <T> T call(String endpoint, HttpRequest.Builder request, Class<T> type) {
    try {
      HttpRequest built =
          request.header(ControlServer.SECRET_HEADER, secret(endpoint)).timeout(TIMEOUT).build();
      HttpResponse<byte[]> r = HTTP.send(built, HttpResponse.BodyHandlers.ofByteArray());
      if (r.statusCode() == 400) {
        tools.jackson.databind.JsonNode error = ArtifactCodec.mapper().readTree(r.body());
        if (ControlServer.THROTTLING_TYPE.equals(
            r.headers().firstValue("x-amzn-ErrorType").orElse(error.path("__type").asString("")))) {
          throw new PlatformException(
              new PlatformException.Reason.Throttled(
                  built.method()
                      + " "
                      + built.uri().getPath()
                      + " of "
                      + endpoint
                      + " ("
                      + error.path("message").asString("")
                      + ")"));
        }
        throw new PlatformException(
            new PlatformException.Reason.InvalidRequest(error.path("error").asString("")));
      }
      if (r.statusCode() / 100 != 2) {
        throw new PlatformException(
            new PlatformException.Reason.Unavailable(
                "the supervisor of " + endpoint + " answered " + r.statusCode()));
      }
      return ArtifactCodec.mapper().readValue(r.body(), type);
    } catch (IOException e) {
      throw new PlatformException(
          new PlatformException.Reason.Unavailable(
              "the supervisor of " + endpoint + " did not answer (" + e.getMessage() + ")"),
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PlatformException(
          new PlatformException.Reason.Unavailable("interrupted while calling " + endpoint), e);
    }
  }

  boolean exists(String endpoint) {
    return Files.exists(LocalState.endpointFile(LocalState.endpointDir(root, endpoint)));
  }
}
