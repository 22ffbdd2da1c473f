package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The validate artifact's additive refusal_cost section. */
class ValidateRefusalCostTest {
  @TempDir Path dir;

  private static ValidateArtifact artifact(ValidateArtifact.RefusalCost cost) {
    return new ValidateArtifact(
        new Header(
            1,
            "validate",
            "test",
            Instant.EPOCH,
            Provenance.capture("tts-bench validate --live", Map.of())),
        "quickstart",
        "speech-quickstart",
        "local",
        "plan-quickstart.json",
        true,
        new ValidateArtifact.Verdict(ValidateArtifact.Verdict.Kind.OK, 0),
        List.of(
            new ValidateArtifact.Check(
                "live_rejections", ValidateArtifact.Result.OK, "a", "b", "c")),
        null,
        cost);
  }

  private static ValidateArtifact.RefusalCost cost() {
    ValidateArtifact.LoadPhase below =
        new ValidateArtifact.LoadPhase("closed_below", "closed-loop", 12, null, 14.5, 0, 0);
    ValidateArtifact.LoadPhase again =
        new ValidateArtifact.LoadPhase("closed_below_again", "closed-loop", 12, null, 13.5, 0, 0);
    ValidateArtifact.LoadPhase open =
        new ValidateArtifact.LoadPhase("open_above", "open-loop", null, 21.75, 12, 8, 0.5);
    return new ValidateArtifact.RefusalCost(
        1,
        13,
        6,
        below,
        again,
        14,
        7.14,
        List.of(new ValidateArtifact.Refusing(open, 1.0 / 56, 0.25, null, 0.0045)),
        1.0 / 56,
        "open_above: open-loop arrivals");
  }

  @Test
  void write_withRefusalCost_isSchemaValidAndReadsBackEqual() throws Exception {
    Path file = dir.resolve("validate.json");

    ArtifactCodec.write(file, artifact(cost()));

    String json = Files.readString(file);
    assertThat(ArtifactCodec.validate(ArtifactKind.VALIDATE, json)).isEmpty();
    assertThat(json)
        .contains(
            "\"refusal_cost\"",
            "\"seconds_per_refusal\"",
            "\"c_hyperbolic_seconds\"",
            "\"uncertainty_seconds\"",
            "\"open-loop\"");
    assertThat(ArtifactCodec.readValidate(file)).isEqualTo(artifact(cost()));
  }

  @Test
  void write_withoutRefusalCost_hasNoSuchKeyAndReadsBackNull() throws Exception {
    Path file = dir.resolve("validate.json");

    ArtifactCodec.write(file, artifact(null));

    assertThat(Files.readString(file)).doesNotContain("refusal_cost");
    assertThat(ArtifactCodec.readValidate(file).refusalCost()).isNull();
  }
}
