package dev.speechscale.artifacts;

import java.time.Instant;
import java.util.List;

/**
 * The result of {@code tts-bench drift}: what is deployed against what the config and plan say.
 *
 * <p>Its first five components are the {@link Header} every artifact opens with, as fields of its
 * own rather than one unwrapped header (as {@link QmaxArtifact} holds it): the JSON would be the
 * same, but {@code chain}'s {@code Drift} and the report's tests build it field by field through
 * the canonical constructor, which one header component would change under them. {@link #header()}
 * gathers the five.
 *
 * @param model the model
 * @param endpoint the endpoint
 * @param platform {@code local} or {@code aws}
 * @param clean no error-severity finding
 * @param items every difference found, errors first
 */
public record DriftArtifact(
    int schemaVersion,
    String kind,
    String toolVersion,
    Instant createdAt,
    Provenance provenance,
    String model,
    String endpoint,
    String platform,
    boolean clean,
    List<Item> items)
    implements Artifact {

  public DriftArtifact {
    items = List.copyOf(items);
  }

  /**
   * One difference.
   *
   * @param check what was compared ({@code suspended_flags}, {@code target_value}, ...)
   * @param severity {@code error} or {@code warn} ({@link Severity})
   * @param expected what the config or plan says
   * @param actual what is deployed
   * @param detail a sentence naming the fix
   */
  public record Item(
      String check, Severity severity, String expected, String actual, String detail) {}

  /**
   * How much a difference matters: an {@code error} makes drift exit 1, a {@code warn} does not.
   */
  public enum Severity implements Labelled {
    ERROR,
    WARN;

    /** Parses a label written by {@link #label()}. */
    public static Severity ofLabel(String label) {
      return Labels.ofLabel(Severity.class, label, "drift severity");
    }
  }
}
