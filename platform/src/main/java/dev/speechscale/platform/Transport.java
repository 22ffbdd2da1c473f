package dev.speechscale.platform;

import java.util.Locale;

/** How a client reaches the container. Artifacts record the label; a ladder is per transport. */
public enum Transport {
  /** POST /invocations streaming straight to a container (or the local router's container path). */
  HTTP_STREAM,
  /** SageMaker Runtime InvokeEndpointWithResponseStream (AWS event-stream framing). */
  RESPONSE_STREAM,
  /** A bidirectional WebSocket session kept open across requests. */
  BIDI;

  /** The constant's name in lower case with dashes: {@code http-stream}, {@code bidi}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Parses a label ({@code http-stream}, {@code response-stream}, {@code bidi}). */
  public static Transport ofLabel(String label) {
    for (Transport t : values()) {
      if (t.label().equals(label.toLowerCase(Locale.ROOT))) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "transport '" + label + "' is not one of http-stream, response-stream, bidi");
  }
}
