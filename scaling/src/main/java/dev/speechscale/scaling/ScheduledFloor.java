package dev.speechscale.scaling;

import java.util.Locale;

/**
 * A scheduled minimum-capacity floor: every day at {@code secondOfDay} (UTC) the endpoint's minimum
 * capacity becomes {@code minCapacity}, until the next floor of the day takes over. Deployed as an
 * Application Auto Scaling scheduled action with a recurring {@link #cron()} schedule and a {@code
 * ScalableTargetAction} that sets only {@code MinCapacity}.
 *
 * <p>Semantics from the Application Auto Scaling User Guide, "How scheduled scaling for Application
 * Auto Scaling works"
 * (docs.aws.amazon.com/autoscaling/application/userguide/scheduled-scaling-policy-overview.html):
 * at the specified time, if current capacity is less than the specified minimum capacity,
 * Application Auto Scaling scales out to it; a scheduled action may set only the minimum; recurring
 * schedules are in UTC by default. The API reference for {@code PutScheduledAction} ({@code
 * ScalableTargetAction}) says the same: "if the current capacity is below the minimum capacity,
 * Application Auto Scaling scales out to the minimum capacity".
 *
 * @param secondOfDay UTC time of day in seconds, a multiple of 60 in {@code [0, 86400)}: cron
 *     schedules have minute resolution
 * @param minCapacity the minimum capacity from that time on (0 or more)
 */
public record ScheduledFloor(int secondOfDay, int minCapacity) {
  /** Seconds in a (UTC) day. */
  public static final int DAY_SECONDS = 86_400;

  public ScheduledFloor {
    if (secondOfDay < 0 || secondOfDay >= DAY_SECONDS) {
      throw new IllegalArgumentException(
          "scheduled floor time ("
              + secondOfDay
              + " s) must be a UTC time of day in [0, 86400) s, i.e. 00:00 to 23:59");
    }
    if (secondOfDay % 60 != 0) {
      throw new IllegalArgumentException(
          "scheduled floor time ("
              + secondOfDay
              + " s) must be a whole minute (a multiple of 60 s): Application Auto Scaling cron"
              + " schedules have minute resolution; round it to "
              + (secondOfDay / 60 * 60)
              + " s");
    }
    if (minCapacity < 0) {
      throw new IllegalArgumentException(
          "scheduled floor min capacity ("
              + minCapacity
              + ") at "
              + hhmm(secondOfDay)
              + " must be at least 0");
    }
  }

  /** The floor at {@code HH:MM} (UTC, 24 h), e.g. {@code 08:30}. */
  public static ScheduledFloor at(String hhmm, int minCapacity) {
    String s = hhmm == null ? "" : hhmm.strip();
    if (!s.matches("\\d{1,2}:\\d{2}")) {
      throw new IllegalArgumentException(
          "scheduled floor time '" + hhmm + "' is not HH:MM (UTC, 24 h); write e.g. 08:30");
    }
    int h = Integer.parseInt(s.substring(0, s.indexOf(':')));
    int m = Integer.parseInt(s.substring(s.indexOf(':') + 1));
    if (h > 23 || m > 59) {
      throw new IllegalArgumentException(
          "scheduled floor time '" + hhmm + "' is out of range; hours 00-23, minutes 00-59");
    }
    return new ScheduledFloor(h * 3600 + m * 60, minCapacity);
  }

  /** The time of day as {@code HH:MM} (UTC). */
  public String hhmm() {
    return hhmm(secondOfDay);
  }

  /**
   * The Application Auto Scaling recurring schedule, {@code cron(M H * * ? *)} (fields: minutes,
   * hours, day of month, month, day of week, year; UTC).
   */
  public String cron() {
    return String.format(
        Locale.ROOT, "cron(%d %d * * ? *)", secondOfDay % 3600 / 60, secondOfDay / 3600);
  }

  /**
   * The floor of an Application Auto Scaling schedule {@code cron(M H * * ? *)}; refuses others.
   */
  public static ScheduledFloor ofCron(String cron, int minCapacity) {
    var m =
        java.util.regex.Pattern.compile("cron\\((\\d{1,2}) (\\d{1,2}) \\* \\* \\? \\*\\)")
            .matcher(cron == null ? "" : cron.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "schedule '"
              + cron
              + "' is not a daily schedule cron(M H * * ? *); SpeechScale floors deploy only those");
    }
    int h = Integer.parseInt(m.group(2));
    int min = Integer.parseInt(m.group(1));
    if (h > 23 || min > 59) {
      throw new IllegalArgumentException(
          "schedule '" + cron + "' is out of range; hours 0-23, minutes 0-59");
    }
    return new ScheduledFloor(h * 3600 + min * 60, minCapacity);
  }

  private static String hhmm(int secondOfDay) {
    return String.format(Locale.ROOT, "%02d:%02d", secondOfDay / 3600, secondOfDay % 3600 / 60);
  }
}
