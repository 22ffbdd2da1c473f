package dev.speechscale.artifacts;

import java.time.Instant;

/**
 * Who wrote an artifact and when: the {@code tool_version}, {@code created_at} and {@code
 * provenance} every artifact carries beside its {@code schema_version} and {@code kind}.
 *
 * @param toolVersion the tool that wrote it
 * @param createdAt when it was written
 * @param provenance host, JVM, command line and effective parameters
 */
public record Stamp(String toolVersion, Instant createdAt, Provenance provenance) {

  /** Stamped by this build of the tool at {@code createdAt}. */
  public static Stamp current(Instant createdAt, Provenance provenance) {
    return new Stamp(ToolVersion.current(), createdAt, provenance);
  }
}
