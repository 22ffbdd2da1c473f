package dev.speechscale.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Scheduled minimum-capacity floors (Application Auto Scaling scheduled actions that set
 * MinCapacity at a time of day) derived from a trace's hourly shape.
 *
 * <p>For each hour h of the day the floor is {@code ⌈fraction × λ_low(h) / X⌉}, where λ_low(h) is
 * the hour's lowest minute rate and X one instance's sustainable throughput: never more instances
 * than the quietest minute of that hour needs at full load, so a floor only stops the scale-in from
 * undershooting and pre-positions capacity ahead of a ramp. It takes effect {@code lead} seconds
 * before the hour (the start-up delay, so the instances are in service when the hour starts), is
 * clamped to the policy's min and max, and consecutive hours with the same floor are one action.
 */
public final class Floors {
  private Floors() {}

  /**
   * One scheduled action.
   *
   * @param secondOfDay when, in seconds after 00:00 UTC
   * @param minCapacity the MinCapacity it sets
   */
  public record Floor(int secondOfDay, int minCapacity) {
    public Floor {
      if (secondOfDay < 0 || secondOfDay >= 86_400) {
        throw new SimulatorException(
            "a floor's time of day (" + secondOfDay + " s) must be in [0, 86400)");
      }
      if (minCapacity < 0) {
        throw new SimulatorException(
            "a floor's min capacity (" + minCapacity + ") must be at least 0");
      }
    }

    /** {@code HH:MM}, as the plan artifact writes it. */
    public String at() {
      return String.format(Locale.ROOT, "%02d:%02d", secondOfDay / 3600, secondOfDay % 3600 / 60);
    }
  }

  /**
   * The floors for {@code hourlyLowest} (per hour of day, NaN for an hour the trace does not reach,
   * which keeps the previous hour's floor).
   *
   * @param fraction of the quietest minute's need each floor holds, 0..1 (0: no floors)
   * @param perInstancePerSecond one instance's sustainable throughput
   * @param leadSeconds how long before its hour each action fires (whole minutes are kept)
   * @param min the policy's MinCapacity, the lowest a floor goes
   * @param max the policy's MaxCapacity, the highest
   * @return the actions in time-of-day order; empty when every hour's floor is {@code min}
   */
  public static List<Floor> derive(
      double[] hourlyLowest,
      double fraction,
      double perInstancePerSecond,
      long leadSeconds,
      int min,
      int max) {
    if (hourlyLowest.length != 24) {
      throw new SimulatorException("floors need 24 hourly rates, not " + hourlyLowest.length);
    }
    if (!(fraction >= 0 && fraction <= 1)) {
      throw new SimulatorException("a floor fraction (" + fraction + ") must be in [0, 1]");
    }
    if (!(perInstancePerSecond > 0) || Double.isInfinite(perInstancePerSecond)) {
      throw new SimulatorException(
          "one instance's throughput (" + perInstancePerSecond + " req/s) must be positive");
    }
    if (leadSeconds < 0 || leadSeconds >= 3600) {
      throw new SimulatorException(
          "a floor's lead (" + leadSeconds + " s) must be in [0 s, 3600 s)");
    }
    int[] floor = new int[24];
    int last = min;
    for (int h = 0; h < 24; h++) { // a NaN hour keeps the one before; hour 0 wraps from hour 23
      int prev = h == 0 ? lastDefined(hourlyLowest, fraction, perInstancePerSecond, min) : last;
      floor[h] =
          Double.isNaN(hourlyLowest[h])
              ? prev
              : need(hourlyLowest[h], fraction, perInstancePerSecond);
      floor[h] = Math.max(min, Math.min(max, floor[h]));
      last = floor[h];
    }
    boolean allMin = true;
    for (int f : floor) {
      allMin &= f == min;
    }
    if (allMin || fraction == 0) {
      return List.of();
    }
    long lead = leadSeconds / 60 * 60;
    List<Floor> out = new ArrayList<>();
    for (int h = 0; h < 24; h++) {
      if (floor[h] != floor[(h + 23) % 24]) {
        out.add(new Floor((int) Math.floorMod(h * 3600L - lead, 86_400L), floor[h]));
      }
    }
    if (out.isEmpty()) { // one floor all day, above min
      out.add(new Floor(0, floor[0]));
    }
    out.sort(java.util.Comparator.comparingInt(Floor::secondOfDay));
    return List.copyOf(out);
  }

  private static int need(double rate, double fraction, double perInstance) {
    return (int) Math.ceil(fraction * rate / perInstance - 1e-9);
  }

  private static int lastDefined(double[] low, double fraction, double perInstance, int min) {
    for (int h = 23; h >= 0; h--) {
      if (!Double.isNaN(low[h])) {
        return need(low[h], fraction, perInstance);
      }
    }
    return min;
  }

  /** The floor in force at {@code secondOfDay}: the latest action at or before it, wrapping. */
  public static int at(List<Floor> floors, int secondOfDay, int min) {
    if (floors.isEmpty()) {
      return min;
    }
    Floor in = floors.getLast();
    for (Floor f : floors) {
      if (f.secondOfDay() <= secondOfDay) {
        in = f;
      }
    }
    return in.minCapacity();
  }

  /** As printed: {@code 06:55 40, 11:55 200, ...}. */
  public static String describe(List<Floor> floors) {
    if (floors.isEmpty()) {
      return "none";
    }
    StringBuilder sb = new StringBuilder();
    for (Floor f : floors) {
      sb.append(sb.isEmpty() ? "" : ", ").append(f.at()).append(' ').append(f.minCapacity());
    }
    return sb.toString();
  }
}
