package dev.speechscale.cli;

import java.util.function.DoublePredicate;
import picocli.CommandLine.Model.CommandSpec;

/** A percentage option written {@code 10} or {@code 10%}. */
final class Percent {
  private Percent() {}

  /**
   * The number {@code text} gives, with or without a trailing {@code %}.
   *
   * @throws picocli.CommandLine.ParameterException (exit 2) naming {@code option}, the value and
   *     {@code mustBe} when it is not a number or {@code accepts} refuses it
   */
  static double parse(
      CommandSpec spec, String option, String text, DoublePredicate accepts, String mustBe) {
    String number = text.strip();
    if (number.endsWith("%")) {
      number = number.substring(0, number.length() - 1).strip();
    }
    double v;
    try {
      v = Double.parseDouble(number);
    } catch (NumberFormatException e) {
      v = Double.NaN;
    }
    if (!accepts.test(v)) {
      throw Cli.usage(spec, option + " (" + text + ") must be " + mustBe);
    }
    return v;
  }
}
