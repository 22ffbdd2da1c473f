package dev.speechscale.server;

/** The one unchecked exception speech-server's engines throw across the SPI boundary. */
public final class EngineException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public EngineException(String message) {
    super(message);
  }

  public EngineException(String message, Throwable cause) {
    super(message, cause);
  }
}
