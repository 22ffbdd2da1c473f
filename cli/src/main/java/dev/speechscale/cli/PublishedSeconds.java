package dev.speechscale.cli;

import java.time.Duration;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * A duration as {@link Durations} reads it, or a bare number of seconds: the published tool's
 * spelling ({@code --hold 240}, {@code --measure-window 60.0}) for the options that kept its name
 * or alias it. Only those options take a bare number; everywhere else a duration carries its unit.
 */
final class PublishedSeconds implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern BARE = Pattern.compile("\\d+(?:\\.\\d+)?");

  @Override
  public Duration convert(String value) {
    String v = value.trim();
    if (BARE.matcher(v).matches()) {
      return Duration.ofNanos(Math.round(Double.parseDouble(v) * 1e9));
    }
    return Durations.parse(v);
  }
}
