package dev.speechscale.platform.aws;

import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.ResponseBreakdown;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.sagemakerruntimehttp2.model.InternalStreamFailureException;
import software.amazon.awssdk.services.sagemakerruntimehttp2.model.ModelStreamErrorException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One request's reading on a bidirectional stream, in speech-server's WebSocket protocol (the same
 * rules as loadgen's {@code BidiConnection}): {@code synthesis_start}, audio parts (TTFAB = the
 * first one's arrival), then {@code synthesis_complete}; an {@code error} message ends the request
 * by its {@code status} (503/408/429 rejected, other 4xx client error) or its code ({@code
 * queue_saturated}, {@code request_stale}, {@code shutting_down} rejected; {@code invalid_request},
 * {@code session_busy} client error; anything else server error). Messages of another request (a
 * late reply) are skipped. The stream ending before {@code synthesis_complete} is a server error
 * after {@code synthesis_start} (or when the service said why), else a transport error.
 */
final class BidiExchange {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** What the stream delivered, stamped on arrival. */
  sealed interface Received {
    /** A UTF8 part: one JSON message. */
    record Text(String json, long arrivalNanos) implements Received {}

    /** A BINARY part: PCM. */
    record Audio(int bytes, long arrivalNanos) implements Received {}

    /** The stream ended: normally ({@code failure} null) or with the SDK's exception. */
    record Ended(Throwable failure) implements Received {}
  }

  private final String requestId;
  private final long sentNanos;
  private final NanoClock clock;
  private boolean started;
  private long firstAudioNanos = -1;
  private long audioBytes;

  BidiExchange(String requestId, long sentNanos, NanoClock clock) {
    this.requestId = requestId;
    this.sentNanos = sentNanos;
    this.clock = clock;
  }

  /** Takes one arrival; the request's result once it is decided, else {@code null}. */
  @Nullable Invocation accept(Received r) {
    return switch (r) {
      case Received.Audio a -> {
        if (firstAudioNanos < 0) {
          firstAudioNanos = a.arrivalNanos();
        }
        audioBytes += a.bytes();
        yield null;
      }
      case Received.Text t -> onText(t);
      case Received.Ended e -> ended(e.failure());
    };
  }

  private @Nullable Invocation onText(Received.Text t) {
    JsonNode node;
    try {
      node = JSON.readTree(t.json());
    } catch (JacksonException e) {
      return fail(
          Invocation.Outcome.SERVER_ERROR, "the container sent text that is not JSON: " + t.json());
    }
    String id = node.path("request_id").asString("unknown");
    if (!id.equals(requestId) && !id.equals("unknown")) {
      return null;
    }
    return switch (node.path("type").asString("")) {
      case "synthesis_start" -> {
        started = true;
        yield null;
      }
      case "synthesis_complete" ->
          new Invocation(
              audioBytes > 0 ? Invocation.Outcome.OK : Invocation.Outcome.SERVER_ERROR,
              200,
              sentNanos,
              firstAudioNanos,
              t.arrivalNanos(),
              audioBytes,
              audioBytes > 0 ? null : "synthesis_complete without any audio part",
              ResponseBreakdown.UNKNOWN);
      case "error" -> {
        int status = node.path("status").asInt(0);
        Invocation.Outcome outcome =
            status > 0 ? ofStatus(status) : ofCode(node.path("error").asString(""));
        yield new Invocation(
            outcome,
            status,
            sentNanos,
            firstAudioNanos,
            t.arrivalNanos(),
            audioBytes,
            "error message: " + t.json(),
            ResponseBreakdown.UNKNOWN);
      }
      default -> null;
    };
  }

  private Invocation ended(Throwable failure) {
    if (failure == null) {
      return fail(
          started ? Invocation.Outcome.SERVER_ERROR : Invocation.Outcome.TRANSPORT_ERROR,
          "the stream ended before synthesis_complete"
              + (started ? " (mid-stream)" : " (before synthesis_start)"));
    }
    Throwable e = AwsErrors.serviceCause(failure);
    if (e instanceof ModelStreamErrorException mse) {
      return fail(
          Invocation.Outcome.SERVER_ERROR,
          "ModelStreamError " + mse.errorCode() + ": " + AwsErrors.serviceMessage(mse));
    }
    if (e instanceof InternalStreamFailureException isf) {
      return fail(
          Invocation.Outcome.SERVER_ERROR,
          "InternalStreamFailure: " + AwsErrors.serviceMessage(isf));
    }
    if (e instanceof AwsServiceException ase) {
      String code = ase.awsErrorDetails() == null ? null : ase.awsErrorDetails().errorCode();
      return new Invocation(
          ResponseStreamInvoker.outcome(ase.statusCode(), AwsErrors.serviceMessage(ase)),
          ase.statusCode(),
          sentNanos,
          firstAudioNanos,
          clock.nanoTime(),
          audioBytes,
          code + " (" + ase.statusCode() + "): " + AwsErrors.serviceMessage(ase),
          ResponseBreakdown.UNKNOWN);
    }
    return fail(
        Invocation.Outcome.TRANSPORT_ERROR,
        failure.getClass().getSimpleName() + ": " + failure.getMessage());
  }

  Invocation fail(Invocation.Outcome outcome, String error) {
    return new Invocation(
        outcome,
        0,
        sentNanos,
        firstAudioNanos,
        clock.nanoTime(),
        audioBytes,
        error,
        ResponseBreakdown.UNKNOWN);
  }

  private static Invocation.Outcome ofStatus(int status) {
    if (status == 503 || status == 408 || status == 429) {
      return Invocation.Outcome.REJECTED;
    }
    return status >= 400 && status < 500
        ? Invocation.Outcome.CLIENT_ERROR
        : Invocation.Outcome.SERVER_ERROR;
  }

  private static Invocation.Outcome ofCode(String code) {
    return switch (code.toLowerCase(Locale.ROOT)) {
      case "queue_saturated", "request_stale", "shutting_down" -> Invocation.Outcome.REJECTED;
      case "invalid_request", "session_busy" -> Invocation.Outcome.CLIENT_ERROR;
      default -> Invocation.Outcome.SERVER_ERROR;
    };
  }
}
