package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

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
 * @param timeline what the load checks saw over time (additive; {@code null} without {@code --live}
 *     and in artifacts written before it)
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
    List<Check> checks,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable ValidateTimeline timeline)
    implements Artifact {

  public ValidateArtifact {
    checks = List.copyOf(checks);
  }

  /** A validation without a timeline (static checks only, or written before timelines). */
  public ValidateArtifact(
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
      List<Check> checks) {
    this(
        schemaVersion,
        kind,
        toolVersion,
        createdAt,
        provenance,
        model,
        endpoint,
        platform,
        plan,
        live,
        verdict,
        checks,
        null);
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
  public enum Result implements Labelled {
    OK,
    WARN,
    FAIL;

    /** Parses a label written by {@link #label()}. */
    public static Result ofLabel(String label) {
      return Labels.ofLabel(Result.class, label, "check result");
    }
  }

  /**
   * The overall verdict: {@link Kind#FAIL} when any check fails, else {@link Kind#WARN} when any
   * warns, else {@link Kind#OK}. {@link #toString()} is the label ({@code ok}, {@code warn (N)},
   * {@code fail (N)}).
   *
   * @param kind which verdict
   * @param checks how many checks failed (FAIL) or warned (WARN); 0 for OK
   */
  public record Verdict(Kind kind, int checks) {

    /** The closed set of validate verdicts. */
    public enum Kind implements Labelled {
      OK,
      WARN,
      FAIL
    }

    public Verdict {
      if ((kind == Kind.OK) != (checks == 0) || checks < 0) {
        throw new ArtifactException(
            "a validate verdict counts checks ("
                + checks
                + ") exactly when it is not ok ("
                + kind
                + ")");
      }
    }

    /** True when any check failed (the command exits 1). */
    public boolean failed() {
      return kind == Kind.FAIL;
    }

    /** The label in artifacts and output. */
    public String label() {
      return kind == Kind.OK ? "ok" : kind.label() + " (" + checks + ")";
    }

    @Override
    public String toString() {
      return label();
    }

    /** The verdict over these checks. */
    public static Verdict of(List<Check> checks) {
      long fails = checks.stream().filter(c -> c.result() == Result.FAIL).count();
      long warns = checks.stream().filter(c -> c.result() == Result.WARN).count();
      return fails > 0
          ? new Verdict(Kind.FAIL, (int) fails)
          : new Verdict(warns > 0 ? Kind.WARN : Kind.OK, (int) warns);
    }

    /** Parses a label written by {@link #label()}. */
    public static Verdict ofLabel(String label) {
      if ("ok".equals(label)) {
        return new Verdict(Kind.OK, 0);
      }
      if (label != null && label.matches("(warn|fail) \\([0-9]{1,9}\\)")) {
        return new Verdict(
            Labels.ofLabel(Kind.class, label.substring(0, 4), "validate verdict"),
            Integer.parseInt(label.substring(6, label.length() - 1)));
      }
      throw new ArtifactException(
          "validate verdict '" + label + "' is not one of ok, warn (N), fail (N)");
    }
  }
}
