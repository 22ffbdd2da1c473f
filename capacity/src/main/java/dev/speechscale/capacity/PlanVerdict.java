package dev.speechscale.capacity;

import java.util.List;

/**
 * A plan's overall verdict, from its findings: {@link Ok} when nothing warns, {@link Warn} with the
 * number of warning findings, or {@link Infeasible} when any finding is. Its {@link #label()} is
 * what artifacts and reports have always carried: {@code ok}, {@code warn (N)}, {@code INFEASIBLE};
 * {@link #toString()} is the label, so text built around a verdict reads as before.
 */
public sealed interface PlanVerdict {

  /** The label in artifacts and output. */
  String label();

  /** Nothing warns. */
  record Ok() implements PlanVerdict {
    @Override
    public String label() {
      return "ok";
    }

    @Override
    public String toString() {
      return label();
    }
  }

  /**
   * Deployable, with findings that warn.
   *
   * @param warnings how many findings warn (at least 1)
   */
  record Warn(int warnings) implements PlanVerdict {
    public Warn {
      if (warnings < 1) {
        throw new CapacityException(
            "a warn verdict counts its warnings (" + warnings + "); with none the verdict is ok");
      }
    }

    @Override
    public String label() {
      return "warn (" + warnings + ")";
    }

    @Override
    public String toString() {
      return label();
    }
  }

  /** A finding is infeasible: nothing from this plan may deploy. */
  record Infeasible() implements PlanVerdict {
    @Override
    public String label() {
      return "INFEASIBLE";
    }

    @Override
    public String toString() {
      return label();
    }
  }

  /** The verdict of a plan with these findings. */
  static PlanVerdict of(List<Finding> findings) {
    if (findings.stream().anyMatch(f -> f.verdict() == Verdict.INFEASIBLE)) {
      return new Infeasible();
    }
    long warns = findings.stream().filter(f -> f.verdict() == Verdict.WARN).count();
    return warns == 0 ? new Ok() : new Warn((int) warns);
  }

  /** Parses a label written by {@link #label()}. */
  static PlanVerdict ofLabel(String label) {
    if ("ok".equals(label)) {
      return new Ok();
    }
    if ("INFEASIBLE".equals(label)) {
      return new Infeasible();
    }
    if (label != null && label.matches("warn \\([1-9][0-9]{0,8}\\)")) {
      return new Warn(Integer.parseInt(label.substring("warn (".length(), label.length() - 1)));
    }
    throw new CapacityException(
        "plan verdict '" + label + "' is not one of ok, warn (N), INFEASIBLE");
  }
}
