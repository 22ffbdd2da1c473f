package dev.speechscale.loadgen;

/** The one unchecked exception the load generator throws: a bad spec, or a broken wire contract. */
public final class LoadgenException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LoadgenException(String message) {
    super(message);
  }

  public LoadgenException(String message, Throwable cause) {
    super(message, cause);
  }
}
