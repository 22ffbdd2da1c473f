package dev.speechscale.capacity;

import java.util.Locale;

/** A finding's verdict, ordered from best to worst by {@link #severity()}. */
public enum Verdict {
  OK(0),
  SUPPRESSED(1),
  WARN(2),
  INFEASIBLE(3);

  private final int severity;

  Verdict(int severity) {
    this.severity = severity;
  }

  /** Higher is worse; findings are listed worst first. */
  public int severity() {
    return severity;
  }

  /** The lower-case label used in artifacts and output ({@code ok}, {@code warn}, ...). */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a label written by {@link #label()}. */
  public static Verdict ofLabel(String label) {
    for (Verdict v : values()) {
      if (v.label().equals(label)) {
        return v;
      }
    }
    throw new CapacityException(
        "verdict '" + label + "' is not one of ok, suppressed, warn, infeasible");
  }
}
