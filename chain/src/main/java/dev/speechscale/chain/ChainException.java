package dev.speechscale.chain;

/**
 * A refusal or failure of a chain step (exit code 1), with a message that names the thing, the
 * value and the fix.
 */
public final class ChainException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ChainException(String message) {
    super(message);
  }

  public ChainException(String message, Throwable cause) {
    super(message, cause);
  }
}
