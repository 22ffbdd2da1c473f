package dev.speechscale.artifacts;

import java.util.Locale;

/** The kinds of artifact, each with the command that writes it. */
public enum ArtifactKind {
  QMAX("tts-bench qmax"),
  TTOTAL("tts-bench ttotal"),
  PLAN("tts-bench plan"),
  VALIDATE("tts-bench validate"),
  DRIFT("tts-bench drift"),
  SIMULATE("tts-bench simulate"),
  REPLAY("tts-bench replay");

  private final String writer;

  ArtifactKind(String writer) {
    this.writer = writer;
  }

  /** The {@code kind} field's value. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The command that writes this kind, for error messages. */
  public String writer() {
    return writer;
  }

  /** The JSON Schema resource for this kind. */
  public String schemaResource() {
    return "schema/" + label() + ".schema.json";
  }
}
