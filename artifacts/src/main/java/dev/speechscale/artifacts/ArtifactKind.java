package dev.speechscale.artifacts;

/**
 * The kinds of artifact; the {@code kind} field's value is the {@link #label()}, and each kind is
 * written by the command of the same name.
 */
public enum ArtifactKind implements Labelled {
  QMAX,
  TTOTAL,
  PLAN,
  VALIDATE,
  DRIFT,
  SIMULATE,
  REPLAY;

  /** The command that writes this kind ({@code tts-bench <label>}), for error messages. */
  public String writer() {
    return "tts-bench " + label();
  }

  /** The JSON Schema resource for this kind. */
  public String schemaResource() {
    return "schema/" + label() + ".schema.json";
  }
}
