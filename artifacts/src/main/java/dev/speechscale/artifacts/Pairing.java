package dev.speechscale.artifacts;

import org.jspecify.annotations.Nullable;

/**
 * Whether two artifacts may be combined: they must describe the same deployment (fingerprint) and,
 * where it matters, the same transport and SLO. {@code --allow-config-mismatch} downgrades a
 * fingerprint mismatch to a warning; nothing downgrades a transport or SLO mismatch.
 */
public final class Pairing {
  private Pairing() {}

  /**
   * The outcome of a pairing check.
   *
   * @param ok whether the pair may be used
   * @param warning a message to print even when ok (a downgraded mismatch), or {@code null}
   * @param refusal why the pair is refused, or {@code null}
   */
  public record Result(boolean ok, @Nullable String warning, @Nullable String refusal) {
    static Result pass() {
      return new Result(true, null, null);
    }
  }

  /**
   * Checks that two artifacts were measured under the same enforced CPU limit, naming both. A pair
   * where one side did not record it (an artifact older than the field) passes with a warning;
   * {@code --allow-config-mismatch} downgrades a difference to a warning.
   */
  public static Result cpuLimits(
      String aName,
      @Nullable EnforcedCpu a,
      String bName,
      @Nullable EnforcedCpu b,
      boolean allowMismatch) {
    if (a == null) {
      return b == null ? Result.pass() : unrecorded(aName, bName, b);
    }
    if (b == null) {
      return unrecorded(bName, aName, a);
    }
    if (EnforcedCpu.sameLimit(a, b)) {
      return Result.pass();
    }
    String message =
        aName
            + " was measured under "
            + a.describe()
            + " but "
            + bName
            + " under "
            + b.describe()
            + ": different CPU limits measure different instances";
    if (allowMismatch) {
      return new Result(true, message + "; continuing because of --allow-config-mismatch", null);
    }
    return new Result(
        false,
        null,
        message
            + ". Re-measure both under the same limit (see `speech-infra status`), or pass"
            + " --allow-config-mismatch");
  }

  /** One side records its CPU limit and the other does not: passes, with a warning naming both. */
  private static Result unrecorded(String missingName, String recordedName, EnforcedCpu recorded) {
    return new Result(
        true,
        missingName
            + " does not record the CPU limit it was measured under ("
            + recordedName
            + ": "
            + recorded.describe()
            + "); re-measure it to be sure both ran under the same limit",
        null);
  }

  /** Checks two fingerprints, naming both slugs in any message. */
  public static Result fingerprints(
      String aName,
      @Nullable DeployedConfig a,
      String bName,
      @Nullable DeployedConfig b,
      boolean allowMismatch) {
    if (DeployedConfig.sameDeployment(a, b)) {
      return Result.pass();
    }
    String why =
        a == null || b == null
            ? "one of them carries no fingerprint, and a missing fingerprint never pairs"
            : "they were measured against different deployments";
    String message =
        aName
            + " ("
            + DeployedConfig.slugOf(a)
            + ") and "
            + bName
            + " ("
            + DeployedConfig.slugOf(b)
            + ") do not match: "
            + why;
    if (allowMismatch) {
      return new Result(true, message + "; continuing because of --allow-config-mismatch", null);
    }
    return new Result(
        false,
        null,
        message + ". Re-measure against one deployment, or pass --allow-config-mismatch");
  }
}
