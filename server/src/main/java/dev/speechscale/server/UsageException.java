package dev.speechscale.server;

/** A bad command line or environment: Main prints the message and exits with code 2. */
final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
