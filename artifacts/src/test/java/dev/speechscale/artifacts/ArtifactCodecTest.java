package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArtifactCodecTest {
  @TempDir Path dir;

  private Path write(String name, String json) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, json, StandardCharsets.UTF_8);
    return file;
  }

  @Test
  void readQmax_example_recomputesTheLadder() {
    QmaxArtifact q = ArtifactCodec.readQmax(Examples.QMAX);

    assertThat(q.qMax()).isEqualTo(50);
    assertThat(q.qMaxBracketed()).isTrue();
    assertThat(q.refined()).isFalse();
    assertThat(q.sMeanS()).isCloseTo(0.0613226, within(1e-7));
    assertThat(q.steps()).hasSize(8);
    assertThat(q.steps().getLast().meetsSlo()).isFalse();
    assertThat(q.defaultFileName()).isEqualTo(Examples.QMAX.getFileName().toString());
  }

  @Test
  void readQmax_handWrittenMinimal_isAcceptedAndDerivedValuesRecomputed() throws IOException {
    Path file =
        write(
            "q.json",
            """
            {"schema_version": 1, "kind": "qmax", "model": "m", "transport": "http-stream",
             "slo_ms": 500,
             "steps": [
               {"concurrency": 1, "ttfab_p95_ms": 40, "latency_mean_ms": 30, "latency_p95_ms": 45},
               {"concurrency": 4, "ttfab_p95_ms": 300},
               {"concurrency": 8, "ttfab_p95_ms": 700}
             ]}
            """);

    QmaxArtifact q = ArtifactCodec.readQmax(file);

    assertThat(q.qMax()).isEqualTo(4);
    assertThat(q.qMaxPerRun()).containsExactly(4);
    assertThat(q.qMaxBracketed()).isTrue();
    assertThat(q.sMeanS()).isCloseTo(0.030, within(1e-12));
    assertThat(q.sP95S()).isCloseTo(0.045, within(1e-12));
    assertThat(q.steps()).extracting(QmaxStep::meetsSlo).containsExactly(true, true, false);
    assertThat(q.deployedConfig()).isNull();
    assertThat(q.defaultFileName()).isEqualTo("qmax-m-http-stream-no-fingerprint.json");
  }

  @Test
  void readQmax_wrongStatedQMax_isCorrectedFromTheSteps() throws IOException {
    String json = Files.readString(Examples.QMAX).replace("\"q_max\": 50", "\"q_max\": 60");

    QmaxArtifact q = ArtifactCodec.readQmax(write("q.json", json));

    assertThat(q.qMax()).isEqualTo(50);
  }

  @Test
  void read_wrongKind_namesTheFileAndTheWritingCommand() {
    assertThatThrownBy(() -> ArtifactCodec.readQmax(Examples.TTOTAL))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining(Examples.TTOTAL.toString())
        .hasMessageContaining("is a \"ttotal\" artifact, not a \"qmax\" one")
        .hasMessageContaining("`tts-bench qmax`");
  }

  @Test
  void read_unknownSchemaVersion_isRefused() throws IOException {
    Path file = write("q.json", "{\"schema_version\": 2, \"kind\": \"qmax\"}");

    assertThatThrownBy(() -> ArtifactCodec.readQmax(file))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("has schema_version 2; this tool reads schema_version 1");
  }

  @Test
  void read_malformedJson_namesFileLineColumnAndWhatWasExpected() throws IOException {
    Path broken = write("broken.json", "{\n  \"schema_version\": 1,\n  \"kind\": \"qmax\",,\n}\n");

    assertThatThrownBy(() -> ArtifactCodec.readQmax(broken))
        .isInstanceOf(ArtifactException.class)
        .hasMessageStartingWith(broken + " is not JSON: line 3, column 18: Unexpected character")
        .hasMessageContaining("was expecting double-quote to start property name")
        .hasMessageContaining("written by `tts-bench qmax`")
        .hasMessageNotContaining("REDACTED");
  }

  @Test
  void read_notJson_missingFile_andNonObject_areRefusedClearly() throws IOException {
    Path garbage = write("g.json", "{not json");
    Path array = write("a.json", "[1, 2]");

    assertThatThrownBy(() -> ArtifactCodec.readQmax(garbage)).hasMessageContaining("is not JSON");
    assertThatThrownBy(() -> ArtifactCodec.readQmax(array))
        .hasMessageContaining("not a JSON object");
    assertThatThrownBy(() -> ArtifactCodec.readQmax(dir.resolve("absent.json")))
        .hasMessageContaining("absent.json no such file");
  }

  @Test
  void read_schemaViolation_namesTheField() throws IOException {
    Path file =
        write(
            "q.json",
            """
            {"schema_version": 1, "kind": "qmax", "model": "m", "transport": "http-stream",
             "slo_ms": 500, "steps": [{"concurrency": "four", "ttfab_p95_ms": 1}]}
            """);

    assertThatThrownBy(() -> ArtifactCodec.readQmax(file))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("does not match the qmax schema")
        .hasMessageContaining("concurrency");
  }

  @Test
  void readTtotal_example_durationsSumExactlyToTheTotal() {
    TtotalArtifact t = ArtifactCodec.readTtotal(Examples.TTOTAL);

    long sumMs = t.durations().stream().mapToLong(d -> Math.round(d.seconds() * 1000)).sum();
    assertThat(sumMs).isEqualTo(Math.round(t.tTotalS() * 1000));
    assertThat(t.tTotalS()).isEqualTo(260.249);
    assertThat(t.tTotalWithPolicyBoundS()).isCloseTo(320.249, within(1e-9));
    assertThat(t.durations()).hasSize(8);
    assertThat(t.durations().getFirst().from()).isEqualTo("desired_set");
    assertThat(t.durations().getFirst().seconds()).isEqualTo(180.836);
    assertThat(t.missingStages()).isEmpty();
  }

  @Test
  void readTtotal_withoutSomeStages_listsThemMissing() throws IOException {
    Path file =
        write(
            "t.json",
            """
            {"schema_version": 1, "kind": "ttotal", "model": "m", "t_total_s": 1,
             "policy_lag_bound_s": 40,
             "timeline": [
               {"stage": "desired_set", "at": "2026-01-01T00:00:00Z"},
               {"stage": "ready", "at": "2026-01-01T00:00:07.5Z"},
               {"stage": "traffic_recovered", "at": "2026-01-01T00:00:20Z"}]}
            """);

    TtotalArtifact t = ArtifactCodec.readTtotal(file);

    assertThat(t.tTotalS()).isEqualTo(20.0);
    assertThat(t.durations())
        .extracting(TtotalArtifact.StageDuration::seconds)
        .containsExactly(7.5, 12.5);
    assertThat(t.missingStages()).contains("instance_logging", "in_service");
    assertThat(t.scaleOutTime().plannedSeconds()).isEqualTo(60.0);
  }

  @Test
  void readTtotal_example_trafficRecoveredObserved_isNotBounded() {
    TtotalArtifact t = ArtifactCodec.readTtotal(Examples.TTOTAL);

    assertThat(t.timeline().getLast().stage()).isEqualTo("traffic_recovered");
    assertThat(t.timeline().getLast().bounded()).isTrue();
    assertThat(t.tTotalBounded()).isFalse();
  }

  @Test
  void readTtotal_oldFileClaimingBoundedThoughTrafficRecovered_isReadAsNotBounded()
      throws IOException {
    Path file =
        write(
            "t.json",
            """
            {"schema_version": 1, "kind": "ttotal", "model": "m", "t_total_s": 8.5,
             "policy_lag_bound_s": 60, "t_total_bounded": true,
             "timeline": [
               {"stage": "desired_set", "at": "2026-01-01T00:00:00Z", "bounded": false},
               {"stage": "in_service", "at": "2026-01-01T00:00:08Z", "bounded": true},
               {"stage": "traffic_recovered", "at": "2026-01-01T00:00:08.5Z",
                "bounded": true}]}
            """);

    TtotalArtifact t = ArtifactCodec.readTtotal(file);

    assertThat(t.tTotalBounded()).isFalse();
    assertThat(
            ArtifactCodec.mapper()
                .readTree(ArtifactCodec.toJson(t))
                .get("t_total_bounded")
                .booleanValue())
        .as("written back corrected")
        .isFalse();
  }

  @Test
  void readTtotal_trafficRecoveredNotObserved_isBoundedWhateverTheFileSays() throws IOException {
    Path file =
        write(
            "t.json",
            """
            {"schema_version": 1, "kind": "ttotal", "model": "m", "t_total_s": 30,
             "policy_lag_bound_s": 60, "t_total_bounded": false,
             "timeline": [
               {"stage": "desired_set", "at": "2026-01-01T00:00:00Z", "bounded": false},
               {"stage": "in_service", "at": "2026-01-01T00:00:08Z", "bounded": true}]}
            """);

    TtotalArtifact t = ArtifactCodec.readTtotal(file);

    assertThat(t.tTotalBounded()).isTrue();
    assertThat(t.tTotalS()).isEqualTo(30.0);
    assertThat(t.missingStages()).contains("traffic_recovered");
  }

  @Test
  void readTtotal_noTimeline_isBounded() throws IOException {
    Path file =
        write(
            "t.json",
            """
            {"schema_version": 1, "kind": "ttotal", "model": "m", "t_total_s": 30,
             "policy_lag_bound_s": 60}
            """);

    TtotalArtifact t = ArtifactCodec.readTtotal(file);

    assertThat(t.tTotalBounded()).isTrue();
    assertThat(t.tTotalS()).isEqualTo(30.0);
  }

  @Test
  void write_isAtomicAndLeavesNoTemporaryFiles() throws IOException {
    QmaxArtifact q = ArtifactCodec.readQmax(Examples.QMAX);
    Path out = dir.resolve("out.json");

    ArtifactCodec.write(out, q);
    ArtifactCodec.write(out, q);

    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).containsExactly(out);
    }
    assertThat(ArtifactCodec.readQmax(out)).isEqualTo(q);
  }

  @Test
  void write_producesJsonThatMatchesTheSchema() {
    String json = ArtifactCodec.toJson(ArtifactCodec.readTtotal(Examples.TTOTAL));

    assertThat(ArtifactCodec.validate(ArtifactKind.TTOTAL, json)).isEmpty();
    assertThat(json).contains("\"t_total_with_policy_bound_s\"").contains("\"policy_lag_bound_s\"");
  }
}
