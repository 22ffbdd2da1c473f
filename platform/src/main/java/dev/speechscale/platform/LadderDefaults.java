package dev.speechscale.platform;

import java.time.Duration;
import java.util.List;

/**
 * The qmax ladder a platform walks when the user names none: coarse rungs, how long each is held,
 * the trailing window measured, and the idle settle between rungs.
 *
 * <p>They differ by platform because the physics does. A local instance starts in seconds and its
 * metrics are readable the second they are sampled, so short holds settle and a doubling ladder
 * finds the SLO crossing quickly. On SageMaker the published tool holds each rung 240 s and
 * measures the last 60 s (ConcurrentRequestsPerModel is published per 10 s and a GPU queue needs
 * minutes to reach steady state), walks 1, 5, 10, 20 … 60 (1 is the first-chunk alarm's reference,
 * 5 and 10 the pair ttotal compares) and idles 30 s between rungs so a rung does not inherit the
 * previous one's queue: 8 rungs, about 36 minutes.
 *
 * @param rungs coarse concurrencies, ascending
 * @param hold how long each rung is held
 * @param window the trailing part of the hold that is measured
 * @param settle idle time between rungs
 * @param source where these numbers come from, for help and dry-run text
 */
public record LadderDefaults(
    List<Integer> rungs, Duration hold, Duration window, Duration settle, String source) {
  public LadderDefaults {
    rungs = List.copyOf(rungs);
    if (rungs.isEmpty()) {
      throw new IllegalArgumentException("a ladder needs at least one rung");
    }
    if (window.compareTo(hold) > 0) {
      throw new IllegalArgumentException(
          "window (" + window + ") must not exceed hold (" + hold + ")");
    }
  }

  /** This machine's ladder: a doubling ladder to 32, 30 s holds, 20 s windows, no settle. */
  static LadderDefaults localMachine() {
    return new LadderDefaults(
        List.of(1, 2, 4, 8, 16, 32),
        Duration.ofSeconds(30),
        Duration.ofSeconds(20),
        Duration.ZERO,
        "local defaults");
  }

  /**
   * The published tool's SageMaker ladder: rungs 1, 5, 10, 20, 30, 40, 50, 60; 240 s hold; 60 s
   * window; 30 s settle between rungs.
   */
  public static LadderDefaults published() {
    return new LadderDefaults(
        List.of(1, 5, 10, 20, 30, 40, 50, 60),
        Duration.ofSeconds(240),
        Duration.ofSeconds(60),
        Duration.ofSeconds(30),
        "the published SageMaker ladder");
  }
}
