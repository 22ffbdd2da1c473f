package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code timeline}, additive: old validate artifacts read without it, new ones round-trip. */
class ValidateTimelineTest {
  static final Path OLD =
      Path.of("..", "testdata", "quickstart-2026-12-01-2232", "validate-quickstart.json");

  @TempDir Path dir;

  static ValidateTimeline timeline() {
    return new ValidateTimeline(
        Instant.parse("2026-12-02T01:00:00Z"),
        5,
        "ConcurrentRequestsPerModel, Maximum per 1 s period, largest in the interval",
        List.of(new ValidateTimeline.Phase("live_rejections", 0.4)),
        List.of(
            new ValidateTimeline.Sample(0, 1, 20.0, 88, 912.5, 0),
            new ValidateTimeline.Sample(5, null, null, 0, null, 12)));
  }

  static ValidateArtifact withTimeline(ValidateArtifact v, ValidateTimeline t) {
    return new ValidateArtifact(
        v.header(),
        v.model(),
        v.endpoint(),
        v.platform(),
        v.plan(),
        v.live(),
        v.verdict(),
        v.checks(),
        t,
        v.refusalCost());
  }

  @Test
  void readValidate_writtenBeforeTheTimeline_hasNoneAndWritesNone() {
    ValidateArtifact v = ArtifactCodec.readValidate(OLD);

    assertThat(v.timeline()).isNull();
    assertThat(ArtifactCodec.toJson(v)).doesNotContain("timeline");
  }

  @Test
  void write_withATimeline_matchesTheSchemaAndReadsBackEqual() {
    ValidateArtifact v = withTimeline(ArtifactCodec.readValidate(OLD), timeline());
    Path file = dir.resolve("validate-quickstart.json");

    ArtifactCodec.write(file, v);
    String json = ArtifactCodec.toJson(v);

    assertThat(ArtifactCodec.validate(ArtifactKind.VALIDATE, json)).isEmpty();
    assertThat(json).contains("\"t_s\"").contains("\"server_concurrency_max\"");
    assertThat(ArtifactCodec.readValidate(file)).isEqualTo(v);
  }

  @Test
  void new_zeroInterval_refusedNamingTheField() {
    assertThatThrownBy(() -> new ValidateTimeline(Instant.EPOCH, 0, "m", List.of(), List.of()))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("interval_s (0.0) must be positive");
  }
}
