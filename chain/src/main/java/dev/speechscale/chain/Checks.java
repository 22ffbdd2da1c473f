package dev.speechscale.chain;

import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.artifacts.ValidateArtifact.Result;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * How a validate check is written: its record and its numbers. {@link ValidateRun} and the live
 * checks it runs ({@link ValidateLive}, {@link LiveSurge}, {@link LiveScaleOut}, {@link PolicyLag})
 * both use it, so a live check returns its result and never calls back up into {@code ValidateRun}.
 */
final class Checks {
  private Checks() {}

  /** A number as a check shows it: whole numbers without decimals, else three; {@code none}. */
  static String fmt(@Nullable Number v) {
    if (v == null) {
      return "none";
    }
    double d = v.doubleValue();
    return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.3f", d);
  }

  static ValidateArtifact.Check check(
      String name, Result result, String expected, String actual, String detail) {
    return new ValidateArtifact.Check(name, result, expected, actual, detail);
  }

  /** A failed check: the plan expects {@code expected} and nothing of it is deployed. */
  static ValidateArtifact.Check missing(String name, String expected, String detail) {
    return check(name, Result.FAIL, expected, "none", detail);
  }
}
