package dev.speechscale.artifacts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A scheduled minimum-capacity floor as plans and configs spell it ({@code scheduled_floors}: a
 * list of {@code {"at": "HH:MM", "min_capacity": N}}, UTC): the wire side of {@code
 * dev.speechscale.scaling.ScheduledFloor}, which artifacts may not import (the module arrows).
 * Deployed as an Application Auto Scaling scheduled action setting MinCapacity daily at {@code at}.
 *
 * @param at UTC time of day, {@code HH:MM} (24 h)
 * @param minCapacity the minimum capacity from then until the next floor
 */
public record ScheduledFloorEntry(String at, int minCapacity) {
  public ScheduledFloorEntry {
    String problem = problem(at, minCapacity);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    at = normalised(at);
  }

  /** Seconds after midnight UTC. */
  public int secondOfDay() {
    return Integer.parseInt(at.substring(0, 2)) * 3600 + Integer.parseInt(at.substring(3)) * 60;
  }

  /** The floors sorted by time of day; an empty list for {@code null}. */
  public static List<ScheduledFloorEntry> sorted(@Nullable List<ScheduledFloorEntry> floors) {
    if (floors == null) {
      return List.of();
    }
    List<ScheduledFloorEntry> s = new ArrayList<>(floors);
    s.sort(Comparator.comparingInt(ScheduledFloorEntry::secondOfDay));
    return List.copyOf(s);
  }

  /** What is wrong with this floor (naming the field, the value and the fix), or null. */
  static @Nullable String problem(@Nullable String at, int minCapacity) {
    if (at == null || !at.strip().matches("\\d{1,2}:\\d{2}")) {
      return "scheduled floor at ('"
          + at
          + "') must be a UTC time of day HH:MM, e.g. 08:30 (scheduled actions have minute"
          + " resolution)";
    }
    String s = at.strip();
    int h = Integer.parseInt(s.substring(0, s.indexOf(':')));
    int m = Integer.parseInt(s.substring(s.indexOf(':') + 1));
    if (h > 23 || m > 59) {
      return "scheduled floor at ('" + at + "') is out of range; hours 00-23, minutes 00-59";
    }
    if (minCapacity < 0) {
      return "scheduled floor min_capacity (" + minCapacity + ") at " + at + " must be at least 0";
    }
    return null;
  }

  private static String normalised(String at) {
    String s = at.strip();
    int h = Integer.parseInt(s.substring(0, s.indexOf(':')));
    int m = Integer.parseInt(s.substring(s.indexOf(':') + 1));
    return String.format(Locale.ROOT, "%02d:%02d", h, m);
  }
}
