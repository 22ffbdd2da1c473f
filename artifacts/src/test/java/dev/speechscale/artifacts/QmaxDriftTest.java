package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.capacity.RungDrift;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QmaxDriftTest {
  @TempDir Path dir;

  /** A hand-written ladder whose reference rung N=4 was re-measured 18 % slower. */
  private static final String DRIFTED =
      """
      {"schema_version": 1, "kind": "qmax", "model": "m", "transport": "http-stream",
       "slo_ms": 500,
       "steps": [
         {"concurrency": 1, "ttfab_p95_ms": 40, "latency_mean_ms": 30, "latency_p95_ms": 45},
         {"concurrency": 4, "ttfab_p95_ms": 300, "achieved_rps": 15.2},
         {"concurrency": 8, "ttfab_p95_ms": 700}
       ],
       "drift": {
         "reference": "per run, the highest coarse rung that met the SLO",
         "throughput_tolerance_pct": 10, "p95_tolerance_pct": 15,
         "rechecks": [
           {"run_index": 0, "concurrency": 4, "first_step_index": 1, "step_index": 3,
            "when": "at the end of run 1", "elapsed_s": 62.5,
            "first_rps": 15.2, "first_p95_ms": 300, "remeasured_rps": 12.4,
            "remeasured_p95_ms": 366, "beyond_tolerance": false}
         ],
         "drifted": false, "finding": null}}
      """;

  private Path write(String json) throws IOException {
    Path file = dir.resolve("q.json");
    Files.writeString(file, json, StandardCharsets.UTF_8);
    return file;
  }

  @Test
  void readQmax_driftFigures_recomputeTheVerdictWhateverTheFileSays() throws IOException {
    QmaxArtifact q = ArtifactCodec.readQmax(write(DRIFTED));

    QmaxDrift d = q.drift();
    assertThat(d).isNotNull();
    assertThat(d.drifted()).isTrue();
    assertThat(d.finding())
        .isEqualTo(
            "drift: N=4 re-measured at the end of run 1, 1m03s after its first measurement:"
                + " throughput 15.2 -> 12.4 req/s (-18.4 %, tolerance 10 %), p95 TTFAB 300 -> 366"
                + " ms (+22.0 %, tolerance 15 %)");
    QmaxRecheck r = d.rechecks().getFirst();
    assertThat(r.beyondTolerance()).isTrue();
    assertThat(r.throughputChangePct()).isCloseTo(-18.421, within(1e-3));
    assertThat(r.p95ChangePct()).isCloseTo(22.0, within(1e-9));
  }

  @Test
  void measurement_drift_reachesThePlanner() throws IOException {
    QmaxArtifact q = ArtifactCodec.readQmax(write(DRIFTED));

    List<RungDrift> drift = q.measurement("q.json").drift();

    assertThat(drift).singleElement().satisfies(d -> assertThat(d.beyond()).isTrue());
    assertThat(q.qMax()).isEqualTo(4); // the re-measurement is not a step: Q_max stays put
  }

  /** {@link #DRIFTED} whose run was warmed up and measured again, its second re-check within. */
  private static final String REWARMED =
      DRIFTED
          .replace(
              "\"remeasured_p95_ms\": 366, \"beyond_tolerance\": false}",
              "\"remeasured_p95_ms\": 366, \"beyond_tolerance\": false},"
                  + " {\"run_index\": 0, \"concurrency\": 4, \"first_step_index\": 5,"
                  + " \"step_index\": 8, \"when\": \"at the end of run 1, measured again after a"
                  + " warm-up\", \"elapsed_s\": 40, \"first_rps\": 15.0, \"first_p95_ms\": 290,"
                  + " \"remeasured_rps\": 15.3, \"remeasured_p95_ms\": 280}")
          .replace(
              "\"drifted\": false, \"finding\": null}",
              "\"drifted\": true, \"finding\": \"stale\", \"rewarms\": [{\"run_index\": 0,"
                  + " \"recheck_step_index\": 3, \"outcome\": \"remeasured\", \"reason\": \"r\","
                  + " \"host_change_pct\": 1.5, \"host_tolerance_pct\": 10, \"budget_s\": 300,"
                  + " \"rewarm_windows\": 3, \"rewarm_stable\": true, \"rewarm_s\": 19.5,"
                  + " \"remeasured_rungs\": [1, 4, 8], \"q_max_before\": 4, \"extra_s\": 95}]}");

  @Test
  void readQmax_recheckSupersededByARewarm_isLeftOutOfTheVerdictAndThePlanner() throws IOException {
    QmaxArtifact q = ArtifactCodec.readQmax(write(REWARMED));

    QmaxDrift d = q.drift();
    assertThat(d.rechecks()).hasSize(2);
    assertThat(d.superseded(d.rechecks().getFirst())).isTrue();
    assertThat(d.drifted()).isFalse();
    assertThat(d.finding()).isNull();
    assertThat(q.measurement("q.json").drift()).hasSize(1);
    QmaxRewarm w = d.rewarms().getFirst();
    assertThat(w.outcome()).isEqualTo(QmaxRewarm.REMEASURED);
    assertThat(w.remeasuredRungs()).containsExactly(1, 4, 8);
    assertThat(w.qMaxBefore()).isEqualTo(4);
    String json = ArtifactCodec.toJson(q);
    assertThat(json).contains("\"rewarms\"").contains("\"q_max_before\" : 4");
    assertThat(ArtifactCodec.readQmax(write(json)).drift()).isEqualTo(d);
  }

  @Test
  void rewarm_unknownOutcome_isRefusedNamingTheChoices() {
    assertThatThrownBy(
            () -> new QmaxRewarm(0, 3, "fine", "r", null, 10, 300, 0, null, 0, List.of(), null, 0))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("'fine'")
        .hasMessageContaining("machine_moved");
  }

  @Test
  void readQmax_olderArtifactWithoutDrift_readsAndWritesNone() {
    QmaxArtifact q = ArtifactCodec.readQmax(Examples.QMAX);

    assertThat(q.drift()).isNull();
    assertThat(q.measurement("example").drift()).isEmpty();
    assertThat(ArtifactCodec.toJson(q)).doesNotContain("\"drift\"");
  }

  @Test
  void write_withDrift_matchesTheSchemaAndReadsBackEqual() throws IOException {
    QmaxArtifact q = ArtifactCodec.readQmax(write(DRIFTED));
    Path out = dir.resolve("out.json");

    ArtifactCodec.write(out, q);

    String json = Files.readString(out);
    assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, json)).isEmpty();
    assertThat(json).contains("\"throughput_change_pct\"").contains("\"beyond_tolerance\" : true");
    assertThat(ArtifactCodec.readQmax(out)).isEqualTo(q);
  }

  @Test
  void withDrift_withinTolerance_carriesNoFinding() throws IOException {
    QmaxArtifact q = ArtifactCodec.readQmax(Examples.QMAX);
    QmaxRecheck quiet =
        new QmaxRecheck(
            0,
            50,
            6,
            8,
            "at the end of run 1",
            300,
            17.87,
            2805.7,
            17.6,
            2850.0,
            1056L,
            true,
            null,
            null,
            null,
            null,
            null);

    QmaxArtifact checked = q.withDrift(QmaxDrift.of("reference", 10, 15, List.of(quiet)));

    assertThat(checked.drift().drifted()).isFalse();
    assertThat(checked.drift().finding()).isNull();
    assertThat(checked.drift().rechecks().getFirst().beyondTolerance()).isFalse();
    assertThat(checked.qMax()).isEqualTo(q.qMax());
  }

  @Test
  void readQmax_driftWithAZeroReference_isRefusedByTheSchemaNamingTheField() throws IOException {
    Path file = write(DRIFTED.replace("\"first_rps\": 15.2", "\"first_rps\": 0"));

    assertThatThrownBy(() -> ArtifactCodec.readQmax(file))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("first_rps");
  }
}
