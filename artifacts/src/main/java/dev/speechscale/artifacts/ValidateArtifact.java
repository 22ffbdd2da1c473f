package dev.speechscale.artifacts;

import java.time.Instant;
import java.util.List;

/**
 * The result of {@code tts-bench validate}: each check of the deployed policy against the plan, and
 * with {@code --live}, of the policy's behaviour under load.
 *
 * @param model the model
 * @param endpoint the endpoint
 * @param platform {@code local} or {@code aws}
 * @param plan the plan artifact validated against
 * @param live whether load checks ran
 * @param verdict {@code ok}, {@code warn (N)} or {@code fail (N)} ({@link Verdict})
 * @param checks every check, in the order run
 */
public record ValidateArtifact(
    int schemaVersion,
    String kind,
    String toolVersion,
    Instant createdAt,
    Provenance provenance,
    String model,
    String endpoint,
    String platform,
    String plan,
    boolean live,
    Verdict verdict,
    List<Check> checks)
    implements Artifact {

  public ValidateArtifact {
    checks = List.copyOf(checks);
  }

  /**
   * One check.
   *
   * @param name stable identifier ({@code scaling_target_value}, {@code live_scale_out}, ...)
   * @param result {@code ok}, {@code warn} or {@code fail} ({@link Result})
   * @param expected what the plan says
   * @param actual what was deployed or observed
   * @param detail the numbers behind it
   */
  public record Check(String name, Result result, String expected, String actual, String detail) {}

  /** A check's result, written as {@code ok}, {@code warn} or {@code fail}. */
  public enum Result {
    OK,
    WARN,
    FAIL;

    /** The label in artifacts and output. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Parses a label written by {@link #label()}. */
    public static Result ofLabel(String label) {
      for (Result r : values()) {
        if (r.label().equals(label)) {
          return r;
        }
      }
      throw new ArtifactException("check result '" + label + "' is not one of ok, warn, fail");
    }
  }

  /**
   * The overall verdict: {@link Fail} when any check fails, else {@link Warn} when any warns, else
   * {@link Ok}. {@link #toString()} is the label ({@code ok}, {@code warn (N)}, {@code fail (N)}).
   */
  public sealed interface Verdict {
    /** The label in artifacts and output. */
    String label();

    /** True when any check failed (the command exits 1). */
    default boolean failed() {
      return this instanceof Fail;
    }

    /** Every check passed. */
    record Ok() implements Verdict {
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
     * No check failed; some warned.
     *
     * @param warnings how many checks warned
     */
    record Warn(int warnings) implements Verdict {
      @Override
      public String label() {
        return "warn (" + warnings + ")";
      }

      @Override
      public String toString() {
        return label();
      }
    }

    /**
     * Some checks failed.
     *
     * @param failures how many checks failed
     */
    record Fail(int failures) implements Verdict {
      @Override
      public String label() {
        return "fail (" + failures + ")";
      }

      @Override
      public String toString() {
        return label();
      }
    }

    /** The verdict over these checks. */
    static Verdict of(List<Check> checks) {
      long fails = checks.stream().filter(c -> c.result() == Result.FAIL).count();
      long warns = checks.stream().filter(c -> c.result() == Result.WARN).count();
      return fails > 0 ? new Fail((int) fails) : warns > 0 ? new Warn((int) warns) : new Ok();
    }

    /** Parses a label written by {@link #label()}. */
    static Verdict ofLabel(String label) {
      if ("ok".equals(label)) {
        return new Ok();
      }
      if (label != null && label.matches("(warn|fail) \\([0-9]{1,9}\\)")) {
        int n = Integer.parseInt(label.substring(6, label.length() - 1));
        return label.startsWith("warn") ? new Warn(n) : new Fail(n);
      }
      throw new ArtifactException(
          "validate verdict '" + label + "' is not one of ok, warn (N), fail (N)");
    }
  }
}
