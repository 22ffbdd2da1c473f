package dev.speechscale.chain;

import org.jspecify.annotations.Nullable;

/** The figures of a plan artifact that a step cannot go on without. */
final class PlanFigures {
  private PlanFigures() {}

  /**
   * {@code value}, the plan's {@code field}; refused when the plan does not carry it.
   *
   * @param planFile where the plan was read from, for the message
   * @throws ChainException when {@code value} is {@code null}
   */
  static double required(@Nullable Double value, String field, String planFile) {
    if (value == null) {
      throw new ChainException(
          planFile
              + " carries no "
              + field
              + " (a plan with no scaling: infeasible, or without a measured units conversion),"
              + " and live validation needs it: fix what the plan's findings say and re-run"
              + " `tts-bench plan`");
    }
    return value;
  }
}
