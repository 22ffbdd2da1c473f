package dev.speechscale.platform;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One synthesis request as the container contract defines it (streaming WAV unless said otherwise).
 *
 * @param text what to say
 * @param voice the voice, or {@code null} for the engine's default
 * @param speed speaking rate, or {@code null} for 1.0
 * @param stream stream the audio as it is produced (the measurement chain always streams)
 */
public record SynthesisRequest(
    String text, @Nullable String voice, @Nullable Double speed, boolean stream) {
  public SynthesisRequest {
    Objects.requireNonNull(text, "text");
  }

  public static SynthesisRequest streaming(String text) {
    return new SynthesisRequest(text, null, null, true);
  }

  /** The JSON body of {@code POST /invocations}. */
  public String toJson() {
    return fields().append(",\"stream\":").append(stream).append('}').toString();
  }

  /**
   * The JSON text message that asks a bidirectional-stream session for this request: {@code text},
   * {@code voice}, {@code speed} and {@code request_id} (a session always streams, so no {@code
   * stream} flag).
   */
  public String toSessionJson(String requestId) {
    return fields().append(",\"request_id\":").append(quote(requestId)).append('}').toString();
  }

  /** The object's opening and the fields both messages share; the caller closes it. */
  private StringBuilder fields() {
    StringBuilder b = new StringBuilder("{\"text\":").append(quote(text));
    if (voice != null) {
      b.append(",\"voice\":").append(quote(voice));
    }
    if (speed != null) {
      b.append(",\"speed\":").append(speed);
    }
    return b;
  }

  static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }
}
