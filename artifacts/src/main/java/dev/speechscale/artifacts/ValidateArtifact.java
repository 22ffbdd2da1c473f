package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The result of {@code tts-bench validate}: each check of the deployed policy against the plan, and
 * with {@code --live}, of the policy's behaviour under load.
 *
 * <p>It opens with the {@link Header} every artifact shares, unwrapped into the JSON's top level.
 *
 * @param header schema version, kind and stamp
 * @param model the model
 * @param endpoint the endpoint
 * @param platform {@code local} or {@code aws}
 * @param plan the plan artifact validated against
 * @param live whether load checks ran
 * @param verdict {@code ok}, {@code warn (N)} or {@code fail (N)} ({@link Verdict})
 * @param checks every check, in the order run
 * @param timeline what the load checks saw over time (additive; {@code null} without {@code --live}
 *     and in artifacts written before it)
 * @param refusalCost what refusing cost the instance's serving, measured with {@code
 *     live_rejections} (additive: absent without {@code --live} and in artifacts written before it)
 */
public record ValidateArtifact(
    @JsonUnwrapped Header header,
    String model,
    String endpoint,
    String platform,
    String plan,
    boolean live,
    Verdict verdict,
    List<Check> checks,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable ValidateTimeline timeline,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable RefusalCost refusalCost)
    implements Artifact.Sectioned {

  public ValidateArtifact {
    checks = List.copyOf(checks);
  }

  /**
   * What refusing cost one saturated instance's serving: its served throughput without refusals
   * (closed loop just below {@code queue_max_depth}, before and after), and while refusing (closed
   * loop above it, the clients that find the gate full retrying at once; and open loop at a known
   * rate above what it serves, the surge a replay drives). τ per refusing phase is {@code (1 −
   * X1/X0) / r} (the simulator's {@code RefusalCost.estimate}); {@code seconds_per_refusal} is the
   * open-loop phase's figure when it is more than twice its uncertainty (the baselines' spread over
   * its refusal rate), else the figure of the refusing phase whose τ that noise moves least. Rates
   * count completions (and refusals) by their end time in each phase's trailing window.
   *
   * @param instances instances the phases ran on (validate pins one)
   * @param queueMaxDepth the gate's bound
   * @param windowS each phase's trailing window, seconds
   * @param baselineBefore the closed-loop phase below the bound, before the refusing phases
   * @param baselineAfter the same phase again after them
   * @param baselineServedRps X0: the mean of the two baselines
   * @param baselineSpreadPct |before − after| / X0, percent: how much the machine moved
   * @param refusing each refusing phase with what it says a refusal costs
   * @param secondsPerRefusal τ the simulator takes ({@code --validate}); null when no phase refused
   * @param from which phase τ is from, and why
   */
  public record RefusalCost(
      int instances,
      int queueMaxDepth,
      double windowS,
      LoadPhase baselineBefore,
      LoadPhase baselineAfter,
      double baselineServedRps,
      double baselineSpreadPct,
      List<Refusing> refusing,
      @Nullable Double secondsPerRefusal,
      String from) {
    public RefusalCost {
      refusing = List.copyOf(refusing);
    }
  }

  /**
   * One load phase on the pinned instance.
   *
   * @param name {@code closed_below}, {@code closed_above}, {@code open_above}, {@code
   *     closed_below_again}
   * @param loadModel {@code closed-loop} or {@code open-loop}
   * @param concurrency closed loop: N; null for open loop
   * @param offeredRps open loop: the arrival rate; null for closed loop
   * @param servedRps successful completions per second of the window
   * @param refusedRps 503s per second of the window
   * @param otherRps any other outcome per second of the window
   */
  public record LoadPhase(
      String name,
      String loadModel,
      @Nullable Integer concurrency,
      @Nullable Double offeredRps,
      double servedRps,
      double refusedRps,
      double otherRps) {}

  /**
   * A refusing phase and what it says one refusal costs.
   *
   * @param phase the phase
   * @param secondsPerRefusal τ = (1 − X1/X0) / r, seconds of the instance per refusal (negative: it
   *     served more while refusing, the machine's noise is larger than the cost)
   * @param servedRequestsPerRefusal (X0 − X1) / r, served requests' worth per refusal
   * @param cHyperbolicSeconds the c of X1 = X0 / (1 + c·r); null when X1 is 0
   * @param uncertaintySeconds how far τ moves if X0 is off by half the two baselines' spread:
   *     (spread / 2) / r; the phase with the smallest is the one taken
   */
  public record Refusing(
      LoadPhase phase,
      double secondsPerRefusal,
      double servedRequestsPerRefusal,
      @Nullable Double cHyperbolicSeconds,
      double uncertaintySeconds) {}

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
