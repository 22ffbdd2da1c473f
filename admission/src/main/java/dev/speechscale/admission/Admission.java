package dev.speechscale.admission;

/**
 * The outcome of {@link AdmissionGate#admit()}: decided at once, never blocking.
 *
 * <p>Switch over it exhaustively; there is no default case to forget.
 */
public sealed interface Admission {

  /** Admitted: the caller owns {@code permit} and must close it (try-with-resources). */
  record Admitted(Permit permit) implements Admission {
    public Admitted {
      if (permit == null) {
        throw new IllegalArgumentException("permit must not be null");
      }
    }
  }

  /**
   * Refused because {@code inFlight} requests already hold permits and the bound is {@code
   * maxInFlight}: answer 503 {@code queue_saturated} with {@code Retry-After}.
   */
  record Saturated(int inFlight, int maxInFlight) implements Refusal {}

  /** Refused because the gate stopped admitting (graceful shutdown is draining). */
  record ShuttingDown(int inFlight) implements Refusal {}

  /** Not admitted: the two refusals, answered at once. */
  sealed interface Refusal extends Admission {}
}
