package dev.speechscale.platform.local;

import dev.speechscale.platform.JsonText;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.jspecify.annotations.Nullable;

/** Small, complete answers: JSON, AWS-style errors, and request bodies read with a bound. */
final class Responses {
  private Responses() {}

  /** The body, or {@code null} when it exceeds {@code maxBytes}. */
  static byte @Nullable [] readBody(Request request, int maxBytes) throws IOException {
    if (request.getLength() > maxBytes) {
      return null;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = Content.Source.asInputStream(request)) {
      byte[] buffer = new byte[8192];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (out.size() + n > maxBytes) {
          return null;
        }
        out.write(buffer, 0, n);
      }
    }
    return out.toByteArray();
  }

  static void json(Response response, Callback callback, int status, String json) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.write(true, ByteBuffer.wrap((json + "\n").getBytes(StandardCharsets.UTF_8)), callback);
  }

  /** An AWS JSON error: the type in {@code x-amzn-ErrorType}, the message in the body. */
  static void awsError(
      Response response, Callback callback, int status, String type, String message) {
    response.getHeaders().put("x-amzn-ErrorType", type);
    response.getHeaders().put("x-amzn-RequestId", java.util.UUID.randomUUID().toString());
    json(response, callback, status, "{\"message\":" + JsonText.quoted(message) + "}");
  }

  /**
   * A container error as SageMaker Runtime reports it: 424 {@code ModelError} carrying the
   * container's status and body as {@code OriginalStatusCode} and {@code OriginalMessage}.
   */
  static void modelError(
      Response response,
      Callback callback,
      int originalStatus,
      String originalMessage,
      String endpoint,
      String instanceId) {
    String kind = originalStatus >= 500 ? "server" : "client";
    String message =
        String.format(
            Locale.ROOT,
            "Received %s error (%d) from primary with message \"%s\". See the log stream of %s"
                + " (instance %s) for more information.",
            kind,
            originalStatus,
            originalMessage.strip(),
            endpoint,
            instanceId);
    response.getHeaders().put("x-amzn-ErrorType", "ModelError");
    response.getHeaders().put("x-amzn-RequestId", java.util.UUID.randomUUID().toString());
    json(
        response,
        callback,
        424,
        "{\"ErrorCode\":\""
            + (originalStatus >= 500 ? "SERVER_ERROR_FROM_MODEL" : "CLIENT_ERROR_FROM_MODEL")
            + "\",\"LogStreamArn\":"
            + JsonText.quoted("local:/speechscale/Endpoints/" + endpoint + "/" + instanceId)
            + ",\"Message\":"
            + JsonText.quoted(message)
            + ",\"OriginalMessage\":"
            + JsonText.quoted(originalMessage)
            + ",\"OriginalStatusCode\":"
            + originalStatus
            + "}");
  }
}
