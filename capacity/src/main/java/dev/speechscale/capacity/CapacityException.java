package dev.speechscale.capacity;

/** The one unchecked exception this module throws: an input the arithmetic cannot accept. */
public final class CapacityException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public CapacityException(String message) {
    super(message);
  }
}
