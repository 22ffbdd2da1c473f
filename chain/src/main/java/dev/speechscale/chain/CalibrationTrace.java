package dev.speechscale.chain;

import java.time.Duration;
import java.util.Locale;

/**
 * The trace that calibrates the simulator on a fleet of one to two instances: a quiet period at
 * {@value #QUIET_SHARE} of one instance's measured throughput, a step surge to {@value
 * #SURGE_SHARE} of it (past one instance, so the queue fills and the policy must add the second; at
 * most {@value #SURGE_SHARE}/2 of each once two serve), then the quiet rate again, long enough for
 * the step scale-in to act. Written as a {@code time_s,rps} CSV the simulator reads.
 *
 * @param perInstancePerSecond one instance's measured throughput (the plan's X at C_scale_max)
 * @param quiet the first quiet period; the surge starts when it ends
 * @param surge how long the surge lasts
 * @param fall the quiet period after it
 */
public record CalibrationTrace(
    double perInstancePerSecond, Duration quiet, Duration surge, Duration fall) {
  /** The quiet rate, as a share of one instance's measured throughput. */
  public static final double QUIET_SHARE = 0.3;

  /** The surge rate, as a share of one instance's measured throughput. */
  public static final double SURGE_SHARE = 1.4;

  public CalibrationTrace {
    if (!(perInstancePerSecond > 0) || Double.isInfinite(perInstancePerSecond)) {
      throw new ChainException(
          "one instance's throughput ("
              + perInstancePerSecond
              + " req/s) must be positive; measure it with tts-bench qmax");
    }
    for (Duration d : new Duration[] {quiet, surge, fall}) {
      if (d.toMillis() < 1000 || d.toMillis() % 1000 != 0) {
        throw new ChainException(
            "calibration periods (" + d + ") must be whole seconds, at least 1 s");
      }
    }
  }

  /** Seconds from the trace's start to the surge. */
  public double surgeStartS() {
    return quiet.toSeconds();
  }

  /** The quiet rate. */
  public double quietPerSecond() {
    return round(QUIET_SHARE * perInstancePerSecond);
  }

  /** The surge rate. */
  public double surgePerSecond() {
    return round(SURGE_SHARE * perInstancePerSecond);
  }

  /** The trace as {@code time_s,rps} CSV; the last row ends it. */
  public String csv() {
    long a = quiet.toSeconds();
    long b = a + surge.toSeconds();
    long c = b + fall.toSeconds();
    return String.format(
        Locale.ROOT,
        "time_s,rps%n"
            + "# calibration: %.3g req/s quiet, %.3g req/s surge (%.1f x and %.1f x one"
            + " instance's %.4g req/s)%n"
            + "0,%s%n%d,%s%n%d,%s%n%d,0%n",
        quietPerSecond(),
        surgePerSecond(),
        QUIET_SHARE,
        SURGE_SHARE,
        perInstancePerSecond,
        plain(quietPerSecond()),
        a,
        plain(surgePerSecond()),
        b,
        plain(quietPerSecond()),
        c);
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }

  private static String plain(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
