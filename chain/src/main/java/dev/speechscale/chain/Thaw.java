package dev.speechscale.chain;

import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.SuspendedState;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code thaw}: undoes what a hard-killed qmax or ttotal left behind — resumes suspended scaling
 * and, when asked, sets the desired count back.
 */
public final class Thaw {
  private Thaw() {}

  /** Resumes scaling and optionally restores desired capacity; returns what it did. */
  public static List<String> run(Platform platform, String endpoint, @Nullable Integer desired) {
    platform = RetryingPlatform.of(platform); // every control-plane call backs off on throttling
    List<String> done = new ArrayList<>();
    ScalingState s = platform.scalingState(endpoint);
    if (s.target().isPresent()) {
      SuspendedState before = s.target().get().suspended();
      if (before.anySuspended()) {
        platform.setSuspended(endpoint, SuspendedState.NONE);
        done.add("resumed scaling (was " + before + ")");
      } else {
        done.add("scaling was not suspended");
      }
    } else {
      done.add("no scaling is attached (" + s.reason() + ")");
    }
    if (desired != null) {
      EndpointDescription d = platform.describe(endpoint);
      if (d.desiredInstances() != desired) {
        platform.setDesiredInstances(endpoint, desired);
        done.add("desired " + d.desiredInstances() + " -> " + desired);
      } else {
        done.add("desired already " + desired);
      }
    }
    return done;
  }
}
