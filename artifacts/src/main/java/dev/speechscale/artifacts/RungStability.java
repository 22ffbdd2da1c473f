package dev.speechscale.artifacts;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How one qmax rung was held until it was steady: measured in consecutive windows until {@code
 * windows_required} of them in a row agreed (each window's throughput and p95 TTFAB within {@code
 * stability_pct} % of those windows' mean), or until the hold reached {@code max_hold_s}. Recorded
 * per step under {@code stability} (additive; absent in older artifacts and when one window was
 * asked for, which is the trailing-window measurement from before).
 *
 * <p>The step's own figures ({@code ok}, {@code achieved_rps}, the percentiles and histograms) are
 * those of the requests that ended inside the counted windows, taken together: the agreeing run of
 * windows when the rung was stable, else the last {@code windows_required} windows (and the step is
 * then unusable).
 *
 * @param windowsRequired how many consecutive windows had to agree
 * @param stabilityPct how far, in percent of their mean, each of them could be
 * @param maxHoldS the most the rung could be held, seconds (its warm-up included)
 * @param stable whether that many consecutive windows agreed within the max hold
 * @param throughputSpreadPct over the counted windows: the largest distance of one window's
 *     throughput from their mean, in percent of it; {@code null} when a window completed nothing
 * @param p95SpreadPct the same for the p95 TTFAB
 * @param windows every window measured, in order, up to the one where they agreed (or the max hold)
 */
public record RungStability(
    int windowsRequired,
    double stabilityPct,
    double maxHoldS,
    boolean stable,
    @Nullable Double throughputSpreadPct,
    @Nullable Double p95SpreadPct,
    List<Window> windows) {

  public RungStability {
    Objects.requireNonNull(windows, "windows");
    windows = List.copyOf(windows);
  }

  /**
   * One measurement window of a rung.
   *
   * @param startS when it began, seconds after the rung's workers started (its warm-up is before
   *     the first window)
   * @param endS when it ended, same base
   * @param samples successful requests that ended inside it
   * @param achievedRps those per second of window
   * @param ttfabP95Ms their p95 TTFAB (linear interpolation, as the step's), {@code null} when none
   * @param counted whether the step's figures include it
   */
  public record Window(
      double startS,
      double endS,
      long samples,
      double achievedRps,
      @Nullable Double ttfabP95Ms,
      boolean counted) {}

  /** The windows the step's figures came from. */
  public List<Window> counted() {
    return windows.stream().filter(Window::counted).toList();
  }
}
