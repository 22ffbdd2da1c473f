package dev.speechscale.simulator;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * A trace as a rate per minute: what the floors are derived from and what the screening and the
 * held-out day are drawn from (Poisson within each minute, as a {@code time_s,rps} trace).
 *
 * @param perSecond the mean rate of each minute, in requests per second; the last minute may be
 *     shorter ({@code durationSeconds} is not necessarily a whole number of minutes)
 * @param durationSeconds the trace's length
 */
public record RateTable(double[] perSecond, long durationSeconds) {
  /** One row per minute. */
  public static final int STEP_SECONDS = 60;

  public RateTable {
    perSecond = perSecond.clone();
    if (durationSeconds < 1 || perSecond.length != Math.ceilDiv(durationSeconds, STEP_SECONDS)) {
      throw new SimulatorException(
          "a rate table of "
              + durationSeconds
              + " s needs "
              + Math.ceilDiv(Math.max(1, durationSeconds), STEP_SECONDS)
              + " minutes, not "
              + perSecond.length);
    }
    for (double r : perSecond) {
      if (!(r >= 0) || Double.isInfinite(r)) {
        throw new SimulatorException("a rate (" + r + " req/s) must be finite and at least 0");
      }
    }
  }

  /**
   * The rates of {@code traffic} as the arrivals of {@code seed} counted per minute: exact for an
   * {@code arrival_s} trace, the Poisson draw of a rate trace or shape otherwise (at the example's
   * rates a minute holds 600 to 300 000 arrivals, so the count is within a few % of the rate).
   */
  public static RateTable count(Traffic traffic, long seed) {
    long d = traffic.durationSeconds();
    int minutes = (int) Math.ceilDiv(d, STEP_SECONDS);
    long[] counts = new long[minutes];
    try (Traffic.Arrivals a = traffic.arrivals(seed)) {
      for (double t = a.nextSeconds(); !Double.isNaN(t) && t < d; t = a.nextSeconds()) {
        counts[(int) (t / STEP_SECONDS)]++;
      }
    }
    double[] rates = new double[minutes];
    for (int m = 0; m < minutes; m++) {
      rates[m] = counts[m] / (double) minuteLength(m, d);
    }
    return new RateTable(rates, d);
  }

  private static long minuteLength(int m, long d) {
    return Math.min(STEP_SECONDS, d - (long) m * STEP_SECONDS);
  }

  /** The same shape at {@code factor} times the rate. */
  public RateTable scaled(double factor) {
    double[] out = new double[perSecond.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = perSecond[i] * factor;
    }
    return new RateTable(out, durationSeconds);
  }

  /**
   * The same day, {@code seconds} later (whole minutes, wrapping around the end): what ran at 12:00
   * now runs at 12:30 for a shift of 1800 s. A shift of 0 is the same table.
   */
  public RateTable shifted(long seconds) {
    if (seconds % STEP_SECONDS != 0) {
      throw new SimulatorException(
          "--held-out-shift (" + seconds + " s) must be a whole number of minutes");
    }
    int n = perSecond.length;
    if (durationSeconds % STEP_SECONDS != 0 && seconds != 0) {
      throw new SimulatorException(
          "a shifted held-out day needs a trace of whole minutes, not " + durationSeconds + " s");
    }
    int k = (int) Math.floorMod(seconds / STEP_SECONDS, (long) n);
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[(i + k) % n] = perSecond[i];
    }
    return new RateTable(out, durationSeconds);
  }

  /**
   * The lowest minute's rate in each hour of the day (hour h = seconds [3600 h, 3600 h + 3600) of
   * the trace, t = 0 being 00:00 UTC), over every day the trace covers; NaN for an hour it never
   * reaches.
   */
  public double[] hourlyLowest() {
    double[] low = new double[24];
    java.util.Arrays.fill(low, Double.NaN);
    for (int m = 0; m < perSecond.length; m++) {
      int hour = (int) ((long) m * STEP_SECONDS % 86_400 / 3600);
      low[hour] = Double.isNaN(low[hour]) ? perSecond[m] : Math.min(low[hour], perSecond[m]);
    }
    return low;
  }

  /** The table as a {@code time_s,rps} trace: one row per minute and a closing row at the end. */
  public List<String> csvLines() {
    List<String> lines = new ArrayList<>(perSecond.length + 2);
    lines.add("time_s,rps");
    for (int m = 0; m < perSecond.length; m++) {
      lines.add((long) m * STEP_SECONDS + "," + Double.toString(perSecond[m]));
    }
    lines.add(durationSeconds + ",0");
    return lines;
  }

  /** The table as traffic, Poisson within each minute. */
  public Traffic traffic(String name) {
    List<String> lines = csvLines();
    return Traffic.csv(name, lines::stream);
  }

  /** SHA-256 of {@link #csvLines()}, newline-terminated, in hex. */
  public String digest() {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (String line : csvLines()) {
        md.update((line + "\n").getBytes(StandardCharsets.UTF_8));
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT, "RateTable[%d minutes, %d s]", perSecond.length, durationSeconds);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RateTable r
        && r.durationSeconds == durationSeconds
        && java.util.Arrays.equals(r.perSecond, perSecond);
  }

  @Override
  public int hashCode() {
    return 31 * java.util.Arrays.hashCode(perSecond) + Long.hashCode(durationSeconds);
  }

  @Override
  public double[] perSecond() {
    return perSecond.clone();
  }
}
