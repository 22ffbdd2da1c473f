package dev.speechscale.platform;

import java.util.Locale;

/**
 * A scaling resource left behind by an endpoint that no longer exists: a scalable target, a scaling
 * policy or an alarm still naming it. Such a resource moves no capacity today, but it is what the
 * published tool's drift calls an orphan: nothing deploys or destroys it any more, and a new
 * endpoint deployed under the old name inherits it before anything was measured.
 *
 * @param kind what it is
 * @param name its identifier on the platform (resource id, policy name, alarm name)
 * @param endpoint the endpoint it names
 * @param detail how it was found and how to remove it
 */
public record OrphanedScaling(Kind kind, String name, String endpoint, String detail) {
  /** The three kinds of scaling resource. */
  public enum Kind {
    SCALABLE_TARGET,
    SCALING_POLICY,
    ALARM;

    /** The constant's name in lower case with spaces: {@code scalable target}, {@code alarm}. */
    public String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
  }
}
