package dev.speechscale.chain;

import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.SuspendedState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * Holds an endpoint still for a measurement: scaling suspended in both directions and capacity
 * pinned, then everything put back exactly as found — on {@link #close()}, and from a shutdown hook
 * on Ctrl-C/SIGTERM. A freeze that fails halfway undoes what it did before rethrowing. Every call
 * goes through {@link RetryingPlatform} (backs off on throttling) and polls at the platform's
 * interval; the settle bound is the caller's, derived by {@link Timeouts}.
 *
 * <p>Restoring the desired count waits for the endpoint to leave a transitional status ({@code
 * Creating}, {@code Updating}, {@code SystemUpdating}, {@code RollingBack}) first, and tries again
 * when the change is refused while the endpoint is in one: SageMaker refuses
 * UpdateEndpointWeightsAndCapacities with "Cannot update in-progress endpoint" until the previous
 * change is done, and a measurement often ends with one under way (a ttotal scale-out, a freeze
 * that just pinned capacity). The wait is bounded by the same settle bound the freeze was given
 * (derived from the platform's start-up bound or the measured T), not by a constant of its own that
 * a slow start could outlast; past it the message says how to finish by hand ({@code thaw}).
 */
public final class Freeze implements AutoCloseable {
  private final Restore restore;
  private final Thread hook;
  private boolean restored;

  private Freeze(Restore restore) {
    this.restore = restore;
    this.hook = new Thread(this::restore, "restore-" + restore.endpoint());
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /**
   * Suspends scaling (when a scalable target exists) and pins capacity to {@code instances},
   * waiting until the endpoint reports exactly that many in service.
   *
   * @throws ChainException when the endpoint does not settle in {@code timeout}; what was changed
   *     is put back first
   */
  public static Freeze pin(
      Platform platform,
      String endpoint,
      int instances,
      Duration timeout,
      Clock clock,
      Consumer<String> progress) {
    platform = RetryingPlatform.of(platform, clock);
    EndpointDescription before = platform.describe(endpoint);
    ScalingState scaling = platform.scalingState(endpoint);
    SuspendedState previous =
        scaling.target().map(ScalingState.ScalableTarget::suspended).orElse(SuspendedState.NONE);
    Freeze f =
        new Freeze(
            new Restore(
                platform,
                endpoint,
                progress,
                previous,
                scaling.target().isPresent(),
                before.desiredInstances(),
                timeout,
                clock));
    try {
      if (f.restore.hadTarget()) {
        platform.setSuspended(endpoint, SuspendedState.ALL);
      }
      if (before.desiredInstances() != instances) {
        platform.setDesiredInstances(endpoint, instances);
      }
      awaitInstances(platform, endpoint, instances, timeout, clock);
      progress.accept(
          String.format(
              java.util.Locale.ROOT,
              "froze %s: scaling %s, capacity pinned to %d (was %d); it is restored when this ends",
              endpoint,
              f.restore.hadTarget() ? "suspended" : "not attached",
              instances,
              before.desiredInstances()));
      return f;
    } catch (RuntimeException e) {
      f.close();
      throw e;
    }
  }

  /** Waits until describe reports {@code count} desired and in service. */
  public static void awaitInstances(
      Platform platform, String endpoint, int count, Duration timeout, Clock clock) {
    RetryingPlatform control = RetryingPlatform.of(platform, clock);
    Duration poll = control.pollInterval(endpoint);
    Instant deadline = clock.instant().plus(timeout);
    EndpointDescription d = control.describe(endpoint);
    while (d.currentInstances() != count || d.desiredInstances() != count) {
      if (clock.instant().isAfter(deadline)) {
        throw new ChainException(
            endpoint
                + " did not settle at "
                + count
                + " instance(s) within "
                + timeout
                + " (desired "
                + d.desiredInstances()
                + ", in service "
                + d.currentInstances()
                + ", "
                + d.status()
                + "); the bound comes from the platform's start-up bound or the measured T");
      }
      control.pause(poll);
      d = control.describe(endpoint);
    }
  }

  /** The desired count before the freeze. */
  public int previousDesired() {
    return restore.previousDesired();
  }

  /** Puts back the desired count and the suspended flags; idempotent. */
  public synchronized void restore() {
    if (restored) {
      return;
    }
    restored = true;
    restore.run();
  }

  /**
   * What a freeze found and puts back, and how: the suspended flags (when the endpoint has a
   * scalable target) and the desired count, set again within the settle bound the freeze was given.
   */
  private record Restore(
      Platform platform,
      String endpoint,
      Consumer<String> progress,
      SuspendedState previousSuspended,
      boolean hadTarget,
      int previousDesired,
      Duration settle,
      Clock clock) {
    /**
     * The command that finishes a restore by hand: {@code tts-bench thaw --model M --desired N}.
     */
    private String thawCommand() {
      return "tts-bench thaw --model "
          + endpoint.replaceFirst("^speech-", "")
          + " "
          + Flags.DESIRED
          + " "
          + previousDesired;
    }

    /** Puts back the desired count, then the suspended flags; the first failure is rethrown. */
    void run() {
      RuntimeException first = null;
      try {
        restoreDesired();
      } catch (RuntimeException e) {
        first = e;
      }
      try {
        if (hadTarget) {
          platform.setSuspended(endpoint, previousSuspended);
        }
      } catch (RuntimeException e) {
        first = first == null ? e : first;
      }
      if (first != null) {
        progress.accept(
            "could not restore "
                + endpoint
                + " ("
                + first.getMessage()
                + "); run `"
                + thawCommand()
                + "`");
        if (first instanceof PlatformException p) {
          throw p;
        }
        throw first;
      }
      progress.accept(
          "restored "
              + endpoint
              + ": desired "
              + previousDesired
              + ", suspended "
              + previousSuspended);
    }

    /**
     * Sets the desired count back once the endpoint is out of any transitional status, trying again
     * while a refusal coincides with one, until the settle bound.
     */
    private void restoreDesired() {
      Instant deadline = clock.instant().plus(settle);
      RetryingPlatform control = RetryingPlatform.of(platform, clock);
      while (true) {
        EndpointDescription d = awaitSettledStatus(control, deadline);
        if (d.desiredInstances() == previousDesired) {
          return;
        }
        try {
          control.setDesiredInstances(endpoint, previousDesired);
          return;
        } catch (PlatformException refused) {
          EndpointDescription now = control.describe(endpoint);
          if (!transitional(now.status()) || clock.instant().isAfter(deadline)) {
            throw refused;
          }
          progress.accept(
              "restoring "
                  + endpoint
                  + ": the desired count was refused while it is "
                  + now.status()
                  + "; waiting for InService and trying again");
        }
      }
    }

    /** Polls describe until the status is not transitional; past {@code deadline}, refuses. */
    private EndpointDescription awaitSettledStatus(RetryingPlatform control, Instant deadline) {
      Duration poll = control.pollInterval(endpoint);
      EndpointDescription d = control.describe(endpoint);
      while (transitional(d.status())) {
        if (clock.instant().isAfter(deadline)) {
          throw new ChainException(
              endpoint
                  + " was still "
                  + d.status()
                  + " after "
                  + settle
                  + " (the settle bound this freeze was given), so its desired count ("
                  + d.desiredInstances()
                  + ") could not be put back to "
                  + previousDesired
                  + "; when it is InService run `"
                  + thawCommand()
                  + "`");
        }
        control.pause(poll);
        d = control.describe(endpoint);
      }
      return d;
    }
  }

  /** Whether the endpoint is between two states and refuses a capacity change until it is done. */
  static boolean transitional(EndpointStatus status) {
    return switch (status) {
      case CREATING, UPDATING, SYSTEM_UPDATING, ROLLING_BACK -> true;
      case IN_SERVICE, OUT_OF_SERVICE, DELETING, FAILED -> false;
    };
  }

  @Override
  public void close() {
    try {
      restore();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running or has run: restore() above was idempotent
      }
    }
  }
}
