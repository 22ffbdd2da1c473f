package dev.speechscale.artifacts;

import java.time.Instant;

/**
 * The five fields every artifact opens with: {@code schema_version}, {@code kind}, and who wrote it
 * when ({@code tool_version}, {@code created_at}, {@code provenance}: its {@link Stamp}).
 *
 * <p>An artifact record carries it as its first component, {@code @JsonUnwrapped}, so the JSON
 * keeps the five at its top level, first and in this order, and reads back into the same record.
 *
 * @param schemaVersion {@link Artifact#SCHEMA_VERSION}
 * @param kind the artifact's {@link ArtifactKind#label()}
 * @param toolVersion the tool that wrote it
 * @param createdAt when it was written
 * @param provenance host, JVM, command line and effective parameters
 */
public record Header(
    int schemaVersion, String kind, String toolVersion, Instant createdAt, Provenance provenance) {

  /**
   * The header of a {@code kind} artifact written in this schema version, stamped {@code stamp}.
   */
  public static Header of(ArtifactKind kind, Stamp stamp) {
    return new Header(
        Artifact.SCHEMA_VERSION,
        kind.label(),
        stamp.toolVersion(),
        stamp.createdAt(),
        stamp.provenance());
  }

  /** This header under another provenance. */
  public Header withProvenance(Provenance provenance) {
    return new Header(schemaVersion, kind, toolVersion, createdAt, provenance);
  }
}
