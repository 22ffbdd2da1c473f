package dev.speechscale.chain;

import dev.speechscale.platform.Physics;
import java.time.Duration;

/**
 * Every wait of the chain that has a bound, derived from the measured T_total or from the
 * platform's {@link Physics}, never a constant that a slower platform could exceed (a SageMaker
 * instance takes minutes to start; a fixed 3- or 5-minute settle would fail there while passing
 * here).
 */
final class Timeouts {
  private Timeouts() {}

  /**
   * How long pinning capacity may take before anything is measured (qmax, ttotal): the platform's
   * bound on an instance's start-up, plus two polls.
   */
  static Duration settle(Physics physics) {
    return physics.instanceStartBound().plus(physics.minPollInterval().multipliedBy(2));
  }

  /**
   * How long pinning capacity may take once T is measured (validate): a pin is at most one
   * scale-out, which T bounds; twice T plus two polls leaves room for a slow one.
   *
   * @param tTotalS the planned T (measured T_total plus the policy lag bound), seconds
   */
  static Duration settle(double tTotalS, Physics physics) {
    if (!(tTotalS > 0)) {
      throw new ChainException(
          "T (" + tTotalS + " s) must be positive to bound a wait; re-run ttotal and plan");
    }
    return Duration.ofMillis(Math.round(2 * tTotalS * 1000))
        .plus(physics.minPollInterval().multipliedBy(2));
  }

  /**
   * How long ttotal waits after desired_set for the new instance to recover the probe: the
   * platform's start-up bound, then the recovery window twice (a first window may still be
   * settling), plus two polls.
   */
  static Duration recovery(Physics physics, Duration recoveryWindow) {
    return physics
        .instanceStartBound()
        .plus(recoveryWindow.multipliedBy(2))
        .plus(physics.minPollInterval().multipliedBy(2));
  }

  /**
   * How long to wait, once a load driver is told to stop, for its thread to end: each worker
   * finishes the request it has in flight, which the platform's invoker bounds by its request
   * timeout; plus two polls.
   */
  static Duration loadDrain(Physics physics) {
    return physics.requestTimeout().plus(physics.minPollInterval().multipliedBy(2));
  }

  /**
   * How long validate's scale-out load runs at most: the scale-out bound T, which the waiting loop
   * may overrun by one poll and a retried describe, then the drain of a stopped driver. The loop
   * stops the driver itself; this only keeps the load from ending before the loop does.
   *
   * @param bound the scale-out bound (T)
   */
  static Duration scaleOutLoad(Duration bound, Physics physics) {
    return bound.plus(loadDrain(physics));
  }
}
