package dev.speechscale.simulator;

/** The one unchecked exception this module throws: an input the model cannot accept. */
public final class SimulatorException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public SimulatorException(String message) {
    super(message);
  }
}
