package dev.speechscale.cli;

/** A refusal or failure a command reports with exit code 1; the message is printed as is. */
final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CliException(String message) {
    super(message);
  }
}
