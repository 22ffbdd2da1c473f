package dev.speechscale.simulator;

import java.util.Locale;
import java.util.Objects;

/**
 * How much faster a request is served when it finds its instance idle than when it starts the
 * moment the request before it ends (as every request of a qmax ladder does): {@code serviceFactor}
 * of the service time (the slot's occupancy and the time in flight) and {@code firstByteFactor} of
 * the time to the first byte after the start. Both 1 unless measured ({@link #NONE}).
 *
 * <p>Why it exists: on the local platform an instance is held to its CPU share by a CFS quota (half
 * a CPU is 10 ms per 20 ms period). A request that starts right after another finds the period's
 * quota spent and waits for the next one; a request that arrives at an idle instance has it whole.
 * Measured open loop on one {@code local.500mcpu} Flite instance (measurements/
 * simulator-calibration.md, "Idle starts"): requests that did not wait in the server's queue took
 * ×0.83–0.84 the service time and ×0.65–0.68 the time to first byte of those that did, at every
 * load from 0.1 to 0.65 of X_sat and with one instance or two; the ladder, all back to back, sees
 * only the slow kind. A SageMaker instance has no quota; what it does is measured, not assumed.
 *
 * <p>The simulator applies it to a request that starts on a slot that was free when it arrived; a
 * request that queued starts when a slot frees and gets the ladder's times.
 *
 * @param serviceFactor an idle start's service time over a queued start's (0, 1] is the range seen;
 *     any finite positive value is taken as measured)
 * @param firstByteFactor an idle start's time to first byte (after it starts) over a queued start's
 * @param source where the factors came from, for the model's derivation
 */
public record IdleStart(double serviceFactor, double firstByteFactor, String source) {
  /** Idle and queued starts are served alike: the model as it was before idle starts. */
  public static final IdleStart NONE = new IdleStart(1, 1, "none");

  public IdleStart {
    Objects.requireNonNull(source, "source");
    check("service", serviceFactor, source);
    check("first-byte", firstByteFactor, source);
  }

  private static void check(String which, double factor, String source) {
    if (!(factor > 0) || Double.isInfinite(factor)) {
      throw new SimulatorException(
          String.format(
              Locale.ROOT,
              "the idle-start %s factor (%s, from %s) must be finite and positive; re-run tts-bench"
                  + " qmax to measure it, or leave it out for none",
              which,
              factor,
              source));
    }
  }

  /** True when idle and queued starts are served alike. */
  public boolean none() {
    return serviceFactor == 1 && firstByteFactor == 1;
  }

  /** One line for the instance model's derivation. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "a request that finds its slot free is served in x%.3f the time, first byte x%.3f (%s)",
        serviceFactor,
        firstByteFactor,
        source);
  }
}
