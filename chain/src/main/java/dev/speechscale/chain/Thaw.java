package dev.speechscale.chain;

import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.SuspendedState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * {@code thaw}: undoes what a hard-killed qmax or ttotal left behind — resumes suspended scaling
 * and, when asked, sets the desired count back.
 *
 * <p>A kill often lands while a capacity change is under way (ttotal killed during its scale-out;
 * on SageMaker the endpoint then stays {@code Updating} for the minutes an instance takes to
 * provision), and SageMaker refuses UpdateEndpointWeightsAndCapacities meanwhile with
 * ValidationException "Cannot update in-progress endpoint"
 * (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_UpdateEndpointWeightsAndCapacities.html).
 * So the desired count is sent at once and, when it is refused while the endpoint is in a
 * transitional status, sent again once the endpoint is out of it, within the platform's start-up
 * bound ({@link Timeouts#settle(dev.speechscale.platform.Physics)}), as {@link Freeze#restore}
 * does.
 */
public final class Thaw {
  private Thaw() {}

  /** Resumes scaling and optionally restores desired capacity; returns what it did. */
  public static List<String> run(Platform platform, String endpoint, @Nullable Integer desired) {
    return run(RetryingPlatform.of(platform), endpoint, desired, line -> {});
  }

  /**
   * As {@link #run(Platform, String, Integer)}, waiting on {@code control}'s clock and pause, and
   * telling {@code progress} when it waits for a refused change.
   */
  public static List<String> run(
      RetryingPlatform control,
      String endpoint,
      @Nullable Integer desired,
      Consumer<String> progress) {
    List<String> done = new ArrayList<>();
    ScalingState s = control.scalingState(endpoint);
    if (s.target().isPresent()) {
      SuspendedState before = s.target().get().suspended();
      if (before.anySuspended()) {
        control.setSuspended(endpoint, SuspendedState.NONE);
        done.add("resumed scaling (was " + before + ")");
      } else {
        done.add("scaling was not suspended");
      }
    } else {
      done.add("no scaling is attached (" + s.reason() + ")");
    }
    if (desired != null) {
      EndpointDescription d = control.describe(endpoint);
      if (d.desiredInstances() != desired) {
        setDesired(control, endpoint, desired, progress);
        done.add("desired " + d.desiredInstances() + " -> " + desired);
      } else {
        done.add("desired already " + desired);
      }
    }
    return done;
  }

  /** Sends the count; a refusal while the endpoint is transitional is waited out and retried. */
  private static void setDesired(
      RetryingPlatform control, String endpoint, int desired, Consumer<String> progress) {
    Duration bound = Timeouts.settle(control.physics(endpoint));
    Instant deadline = control.clock().instant().plus(bound);
    while (true) {
      try {
        control.setDesiredInstances(endpoint, desired);
        return;
      } catch (PlatformException refused) {
        EndpointDescription now = control.describe(endpoint);
        if (!Freeze.transitional(now.status())) {
          throw refused;
        }
        progress.accept(
            "thaw: desired "
                + desired
                + " was refused while "
                + endpoint
                + " is "
                + now.status()
                + "; waiting for InService (at most "
                + bound
                + ") and trying again");
        awaitSettled(control, endpoint, deadline, bound, refused);
      }
    }
  }

  private static void awaitSettled(
      RetryingPlatform control,
      String endpoint,
      Instant deadline,
      Duration bound,
      PlatformException refused) {
    Duration poll = control.pollInterval(endpoint);
    EndpointDescription d = control.describe(endpoint);
    while (Freeze.transitional(d.status())) {
      if (control.clock().instant().isAfter(deadline)) {
        throw new ChainException(
            endpoint
                + " was still "
                + d.status()
                + " after "
                + bound
                + " (the platform's start-up bound), so thaw could not set its desired count ("
                + refused.getMessage()
                + "); run thaw again once `speech-infra status` shows InService",
            refused);
      }
      control.pause(poll);
      d = control.describe(endpoint);
    }
  }
}
