package dev.speechscale.server;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An error answer: HTTP status plus the JSON body {@code {"error": ..., ...}}. For bad input {@code
 * error} is a sentence naming the field, the value, the rule and the fix, and {@code field} names
 * the field; shedding answers carry machine-readable codes ({@code queue_saturated}, {@code
 * request_stale}, ...).
 *
 * @param reason the metric label for {@code speech_server_rejected_total}
 */
record ApiError(int status, String reason, Map<String, Object> body) {

  ApiError {
    body = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(body));
  }

  /** 400 naming {@code field}. */
  static ApiError badField(String field, String message) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", message);
    body.put("field", field);
    return new ApiError(400, "invalid_request", body);
  }

  static ApiError of(int status, String code, String message) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", code);
    body.put("message", message);
    return new ApiError(status, code, body);
  }

  static ApiError saturated(int inFlight, int maxInFlight) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", "queue_saturated");
    body.put("queue_depth", inFlight);
    body.put("max_queue_depth", maxInFlight);
    return new ApiError(503, "queue_saturated", body);
  }

  String error() {
    return String.valueOf(body.get("error"));
  }
}
