package dev.speechscale.artifacts;

import java.time.Instant;

/**
 * What every artifact carries: the five fields of its {@link Header}. A record holds them either as
 * one unwrapped header component ({@link Sectioned}) or, where other modules still build it field
 * by field, as five components of its own.
 */
public sealed interface Artifact permits Artifact.Sectioned, DriftArtifact {
  /** The only format this version reads and writes. */
  int SCHEMA_VERSION = 1;

  int schemaVersion();

  String kind();

  String toolVersion();

  Instant createdAt();

  Provenance provenance();

  /** The five fields the artifact opens with. */
  default Header header() {
    return new Header(schemaVersion(), kind(), toolVersion(), createdAt(), provenance());
  }

  /**
   * An artifact that holds its {@link Header} as one component ({@code @JsonUnwrapped}, so the JSON
   * keeps the five fields at its top level); the five accessors read it.
   */
  sealed interface Sectioned extends Artifact
      permits QmaxArtifact,
          SimulateArtifact,
          PlanArtifact,
          TtotalArtifact,
          ValidateArtifact,
          ReplayArtifact {
    @Override
    Header header();

    @Override
    default int schemaVersion() {
      return header().schemaVersion();
    }

    @Override
    default String kind() {
      return header().kind();
    }

    @Override
    default String toolVersion() {
      return header().toolVersion();
    }

    @Override
    default Instant createdAt() {
      return header().createdAt();
    }

    @Override
    default Provenance provenance() {
      return header().provenance();
    }
  }
}
