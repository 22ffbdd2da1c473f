package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.capacity.PlanVerdict;
import dev.speechscale.capacity.Verdict;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Verdicts, severities and check results are typed in memory and written as the labels schema
 * version 1 has always carried: the recorded quickstart artifacts read and write back byte for
 * byte.
 */
class LabelsTest {
  private static final Path QUICKSTART = Path.of("..", "testdata", "quickstart-2026-11-30-1140");

  @Test
  void readPlan_recordedQuickstart_isTypedAndWritesBackByteIdentical() throws IOException {
    Path file = QUICKSTART.resolve("plan-quickstart.json");
    PlanArtifact plan = ArtifactCodec.readPlan(file);
    assertThat(plan.verdict()).isEqualTo(PlanVerdict.warn(2));
    assertThat(plan.findings()).extracting(PlanArtifact.FindingEntry::verdict).contains(Verdict.OK);
    assertThat(ArtifactCodec.toJson(plan))
        .isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
  }

  @Test
  void readValidate_recordedQuickstart_isTypedAndWritesBackByteIdentical() throws IOException {
    Path file = QUICKSTART.resolve("validate-quickstart.json");
    ValidateArtifact v = ArtifactCodec.readValidate(file);
    assertThat(v.verdict())
        .isEqualTo(new ValidateArtifact.Verdict(ValidateArtifact.Verdict.Kind.WARN, 1));
    assertThat(v.verdict().failed()).isFalse();
    assertThat(ArtifactCodec.toJson(v)).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
  }

  @Test
  void readDrift_recordedQuickstart_writesBackByteIdentical() throws IOException {
    Path file = QUICKSTART.resolve("drift-quickstart.json");
    DriftArtifact d = ArtifactCodec.readDrift(file);
    assertThat(ArtifactCodec.toJson(d)).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
  }

  @Test
  void labels_everyValue_roundTrip() {
    for (PlanVerdict v : List.of(PlanVerdict.ok(), PlanVerdict.warn(3), PlanVerdict.infeasible())) {
      assertThat(PlanVerdict.ofLabel(v.label())).isEqualTo(v);
      assertThat(v).hasToString(v.label());
    }
    for (ValidateArtifact.Verdict v :
        List.of(
            new ValidateArtifact.Verdict(ValidateArtifact.Verdict.Kind.OK, 0),
            new ValidateArtifact.Verdict(ValidateArtifact.Verdict.Kind.WARN, 2),
            new ValidateArtifact.Verdict(ValidateArtifact.Verdict.Kind.FAIL, 12))) {
      assertThat(ValidateArtifact.Verdict.ofLabel(v.label())).isEqualTo(v);
    }
    for (ValidateArtifact.Result r : ValidateArtifact.Result.values()) {
      assertThat(ValidateArtifact.Result.ofLabel(r.label())).isEqualTo(r);
    }
    for (DriftArtifact.Severity s : DriftArtifact.Severity.values()) {
      assertThat(DriftArtifact.Severity.ofLabel(s.label())).isEqualTo(s);
    }
    assertThat(ValidateArtifact.Result.FAIL.label()).isEqualTo("fail");
    assertThat(DriftArtifact.Severity.ERROR.label()).isEqualTo("error");
  }

  @Test
  void ofLabel_unknownLabel_namesTheValueAndTheAllowedOnes() {
    assertThatThrownBy(() -> ValidateArtifact.Verdict.ofLabel("passed"))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("'passed'")
        .hasMessageContaining("ok, warn (N), fail (N)");
    assertThatThrownBy(() -> DriftArtifact.Severity.ofLabel("ERROR"))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("error, warn");
  }

  @Test
  void verdictOf_checks_failBeatsWarnBeatsOk() {
    var ok = new ValidateArtifact.Check("a", ValidateArtifact.Result.OK, null, null, "d");
    var warn = new ValidateArtifact.Check("b", ValidateArtifact.Result.WARN, null, null, "d");
    var fail = new ValidateArtifact.Check("c", ValidateArtifact.Result.FAIL, null, null, "d");
    assertThat(ValidateArtifact.Verdict.of(List.of(ok))).hasToString("ok");
    assertThat(ValidateArtifact.Verdict.of(List.of(ok, warn, warn))).hasToString("warn (2)");
    assertThat(ValidateArtifact.Verdict.of(List.of(warn, fail))).hasToString("fail (1)");
  }
}
