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
 * @param verdict {@code ok}, {@code warn (N)} or {@code fail (N)}
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
    String verdict,
    List<Check> checks)
    implements Artifact {

  public ValidateArtifact {
    checks = List.copyOf(checks);
  }

  /**
   * One check.
   *
   * @param name stable identifier ({@code scaling_target_value}, {@code live_scale_out}, ...)
   * @param result {@code ok}, {@code warn} or {@code fail}
   * @param expected what the plan says
   * @param actual what was deployed or observed
   * @param detail the numbers behind it
   */
  public record Check(String name, String result, String expected, String actual, String detail) {}
}
