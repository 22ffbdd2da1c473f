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

  /** {@code cause} wrapped, with its message (its class name when it has none). */
  static ChainException wrapping(Exception cause) {
    String message = cause.getMessage();
    return new ChainException(message == null ? cause.toString() : message, cause);
  }

  /**
   * The message: every constructor takes one; should a caller outside the null-checked code pass
   * {@code null}, the cause's description (or the class name) stands in for it.
   */
  @Override
  public String getMessage() {
    String message = super.getMessage();
    if (message != null) {
      return message;
    }
    Throwable cause = getCause();
    return cause == null ? ChainException.class.getName() : cause.toString();
  }
}
