package dev.speechscale.artifacts;

import java.time.Instant;

/** What every artifact carries. */
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

  int schemaVersion();

  String kind();

  String toolVersion();

  Instant createdAt();

  Provenance provenance();
}
