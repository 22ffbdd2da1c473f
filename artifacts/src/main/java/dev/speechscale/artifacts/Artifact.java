package dev.speechscale.artifacts;

import java.time.Instant;

/**
 * What every artifact carries: its {@link Header}. An artifact record either holds the header as
 * one unwrapped component, or (where other modules still build it field by field) its five fields
 * as components of its own, which then stand for the accessors below.
 */
public sealed interface Artifact
    permits QmaxArtifact,
        TtotalArtifact,
        PlanArtifact,
        DriftArtifact,
        ValidateArtifact,
        SimulateArtifact,
        ReplayArtifact {
  /** The only format this version reads and writes. */
  int SCHEMA_VERSION = 1;

  /** The five fields the artifact opens with. */
  Header header();

  default int schemaVersion() {
    return header().schemaVersion();
  }

  default String kind() {
    return header().kind();
  }

  default String toolVersion() {
    return header().toolVersion();
  }

  default Instant createdAt() {
    return header().createdAt();
  }

  default Provenance provenance() {
    return header().provenance();
  }
}
