package dev.speechscale.artifacts;

/**
 * The one unchecked exception this module throws: an artifact that cannot be read, written or
 * paired. The message names the file, what is wrong, and how to produce a good one.
 */
public final class ArtifactException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ArtifactException(String message) {
    super(message);
  }

  public ArtifactException(String message, Throwable cause) {
    super(message, cause);
  }
}
