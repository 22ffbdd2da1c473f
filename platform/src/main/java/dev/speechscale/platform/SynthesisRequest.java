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
    return JsonText.appendQuoted(fields().append(",\"request_id\":"), requestId)
        .append('}')
        .toString();
  }

  /** The object's opening and the fields both messages share; the caller closes it. */
  private StringBuilder fields() {
    StringBuilder b = JsonText.appendQuoted(new StringBuilder("{\"text\":"), text);
    if (voice != null) {
      JsonText.appendQuoted(b.append(",\"voice\":"), voice);
    }
    if (speed != null) {
      b.append(",\"speed\":").append(speed);
    }
    return b;
  }
}
