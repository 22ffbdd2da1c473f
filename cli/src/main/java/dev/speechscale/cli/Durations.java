package dev.speechscale.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Parses durations given as ISO-8601 ({@code PT30S}) or as a number with a unit ({@code 30s}). */
final class Durations implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern SIMPLE =
      Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)", Pattern.CASE_INSENSITIVE);

  @Override
  public Duration convert(String value) {
    return parse(value);
  }

  static Duration parse(String value) {
    String v = value.trim();
    if (v.toUpperCase(Locale.ROOT).startsWith("P")) {
      try {
        return Duration.parse(v.toUpperCase(Locale.ROOT));
      } catch (DateTimeParseException e) {
        throw bad(value);
      }
    }
    Matcher m = SIMPLE.matcher(v);
    if (!m.matches()) {
      throw bad(value);
    }
    double amount = Double.parseDouble(m.group(1));
    double nanosPerUnit =
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
          case "ms" -> 1e6;
          case "s" -> 1e9;
          case "m" -> 60e9;
          default -> 3600e9;
        };
    return Duration.ofNanos(Math.round(amount * nanosPerUnit));
  }

  /**
   * The duration {@code text} gives.
   *
   * @throws picocli.CommandLine.ParameterException (exit 2) naming {@code option}, the value and
   *     {@code mustBe} when it is none
   */
  static Duration parse(
      CommandLine.Model.CommandSpec spec, String option, String text, String mustBe) {
    try {
      return parse(text);
    } catch (RuntimeException e) {
      throw Cli.usage(spec, option + " (" + text + ") must be " + mustBe);
    }
  }

  /** Seconds with millisecond precision, for text. */
  static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.3fs", d.toNanos() / 1e9);
  }

  /**
   * A wall-clock length for progress and schedules: {@code 45s}, {@code 3m05s}, {@code 1h02m00s}.
   */
  static String wallClock(Duration d) {
    long s = d.toSeconds();
    return s >= 3600
        ? String.format(Locale.ROOT, "%dh%02dm%02ds", s / 3600, s % 3600 / 60, s % 60)
        : s >= 60 ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60) : s + "s";
  }

  private static CommandLine.TypeConversionException bad(String value) {
    return new CommandLine.TypeConversionException(
        "'"
            + value
            + "' is not a duration; write it with a unit (500ms, 30s, 5m, 1h) or as ISO-8601"
            + " (PT30S)");
  }
}
