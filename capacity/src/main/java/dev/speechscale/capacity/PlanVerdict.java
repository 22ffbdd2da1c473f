package dev.speechscale.capacity;

import java.util.List;

/**
 * A plan's overall verdict, from its findings: {@link Kind#OK} when nothing warns, {@link
 * Kind#WARN} with the number of warning findings, or {@link Kind#INFEASIBLE} when any finding is.
 * Its {@link #label()} is what artifacts and reports have always carried: {@code ok}, {@code warn
 * (N)}, {@code INFEASIBLE}; {@link #toString()} is the label, so text built around a verdict reads
 * as before.
 *
 * @param kind which verdict
 * @param warnings how many findings warn: at least 1 for {@link Kind#WARN}, else 0
 */
public record PlanVerdict(Kind kind, int warnings) {

  /** The closed set of plan verdicts. */
  public enum Kind {
    OK,
    WARN,
    INFEASIBLE
  }

  public PlanVerdict {
    if ((kind == Kind.WARN) != (warnings > 0) || warnings < 0) {
      throw new CapacityException(
          "a plan verdict counts warnings ("
              + warnings
              + ") exactly when it is warn ("
              + kind
              + ")");
    }
  }

  public static PlanVerdict ok() {
    return new PlanVerdict(Kind.OK, 0);
  }

  public static PlanVerdict warn(int warnings) {
    return new PlanVerdict(Kind.WARN, warnings);
  }

  public static PlanVerdict infeasible() {
    return new PlanVerdict(Kind.INFEASIBLE, 0);
  }

  /** The label in artifacts and output. */
  public String label() {
    return switch (kind) {
      case OK -> "ok";
      case WARN -> "warn (" + warnings + ")";
      case INFEASIBLE -> "INFEASIBLE";
    };
  }

  @Override
  public String toString() {
    return label();
  }

  /** The verdict of a plan with these findings. */
  static PlanVerdict of(List<Finding> findings) {
    if (findings.stream().anyMatch(f -> f.verdict() == Verdict.INFEASIBLE)) {
      return infeasible();
    }
    long warns = findings.stream().filter(f -> f.verdict() == Verdict.WARN).count();
    return warns == 0 ? ok() : warn((int) warns);
  }

  /** Parses a label written by {@link #label()}. */
  public static PlanVerdict ofLabel(String label) {
    if ("ok".equals(label)) {
      return ok();
    }
    if ("INFEASIBLE".equals(label)) {
      return infeasible();
    }
    if (label != null && label.matches("warn \\([1-9][0-9]{0,8}\\)")) {
      return warn(Integer.parseInt(label.substring("warn (".length(), label.length() - 1)));
    }
    throw new CapacityException(
        "plan verdict '" + label + "' is not one of ok, warn (N), INFEASIBLE");
  }
}
