package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Per-rung queue against engine and audio per request: the arithmetic, the JSON, the CSV. */
class StepBreakdownTest {
  private static final Path KOKORO_QMAX =
      Path.of("../examples/kokoro-82m/qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json");

  @Test
  void of_linearPercentilesInMsWithUnsaidValuesLeftOut() {
    StepBreakdown b =
        StepBreakdown.of(
            new long[] {4_000, -1, 1_000, 2_000, 3_000},
            new long[] {10_000, 20_000, -1, -1, -1},
            new double[] {1.5, 2.5, -1, -1, 2.0});

    assertThat(b).isNotNull();
    assertThat(b.timedRequests()).isEqualTo(4);
    // {1, 2, 3, 4} ms: p50 at rank 1.5 = 2.5; p95 at rank 2.85 = 3.85
    assertThat(b.queueWaitP50Ms()).isCloseTo(2.5, within(1e-9));
    assertThat(b.queueWaitP95Ms()).isCloseTo(3.85, within(1e-9));
    assertThat(b.engineFirstChunkP50Ms()).isCloseTo(15.0, within(1e-9));
    assertThat(b.engineFirstChunkP95Ms()).isCloseTo(19.5, within(1e-9));
    assertThat(b.audioRequests()).isEqualTo(3);
    assertThat(b.audioMeanS()).isCloseTo(2.0, within(1e-12));
  }

  @Test
  void of_nothingSaid_null() {
    assertThat(StepBreakdown.of(new long[] {-1}, new long[] {-1}, new double[] {-1})).isNull();
    assertThat(StepBreakdown.of(new long[0], new long[0], new double[0])).isNull();
  }

  @Test
  void of_serviceTimes_meanOfTheKnownOnes() {
    StepBreakdown b =
        StepBreakdown.of(
            new long[] {1_000, 3_000, -1},
            new long[] {-1, -1, -1},
            new double[] {-1, -1, -1},
            new double[] {19.0, 27.0, Double.NaN});

    assertThat(b.serviceMeanMs()).isCloseTo(23.0, within(1e-12));
  }

  @Test
  void of_withoutServiceTimes_noServiceMean() {
    StepBreakdown b = StepBreakdown.of(new long[] {1_000}, new long[] {-1}, new double[] {-1});

    assertThat(b.serviceMeanMs()).isNull();
  }

  @Test
  void of_onlyAudioKnown_timingsNullAudioSet() {
    StepBreakdown b = StepBreakdown.of(new long[] {-1}, new long[] {-1}, new double[] {3.0});

    assertThat(b.timedRequests()).isZero();
    assertThat(b.queueWaitP50Ms()).isNull();
    assertThat(b.engineFirstChunkP95Ms()).isNull();
    assertThat(b.audioMeanS()).isEqualTo(3.0);
  }

  @Test
  void meanAudioSeconds_weightedByEachStepsRequestsOfKnownLength() {
    List<QmaxStep> steps =
        List.of(
            step(1, new StepBreakdown(10L, 0.0, 0.1, 40.0, 45.0, 10L, 2.0, null)),
            step(2, new StepBreakdown(30L, 5.0, 9.0, 41.0, 47.0, 30L, 3.0, null)),
            step(4, null));

    // (10 x 2.0 + 30 x 3.0) / 40 = 2.75
    assertThat(StepBreakdown.meanAudioSeconds(steps)).isCloseTo(2.75, within(1e-12));
  }

  @Test
  void meanAudioSeconds_aLadderFromBeforeTheBreakdown_null() {
    QmaxArtifact old = ArtifactCodec.readQmax(KOKORO_QMAX);

    assertThat(old.steps()).allSatisfy(s -> assertThat(s.breakdown()).isNull());
    assertThat(StepBreakdown.meanAudioSeconds(old.steps())).isNull();
  }

  @Test
  void artifactWithBreakdown_validatesRoundTripsAndExportsItsColumns(@TempDir Path dir)
      throws Exception {
    ObjectNode tree = (ObjectNode) ArtifactCodec.mapper().readTree(KOKORO_QMAX.toFile());
    for (JsonNode step : tree.get("steps")) {
      ObjectNode b = ((ObjectNode) step).putObject("breakdown");
      b.put("timed_requests", 100).put("queue_wait_p50_ms", 12.5).put("queue_wait_p95_ms", 30.25);
      b.put("engine_first_chunk_p50_ms", 40.0).put("engine_first_chunk_p95_ms", 55.5);
      b.put("audio_requests", 100).put("audio_mean_s", 2.4);
    }
    String written = ArtifactCodec.mapper().writeValueAsString(tree);
    assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, written)).isEmpty();
    Path file = dir.resolve("qmax.json");
    java.nio.file.Files.writeString(file, written);

    QmaxArtifact a = ArtifactCodec.readQmax(file);

    assertThat(a.steps())
        .allSatisfy(s ->
            assertThat(s.breakdown())
                .isEqualTo(new StepBreakdown(100L, 12.5, 30.25, 40.0, 55.5, 100L, 2.4, null)));
    assertThat(StepBreakdown.meanAudioSeconds(a.steps())).isCloseTo(2.4, within(1e-12));
    String json = ArtifactCodec.toJson(a);
    assertThat(json).contains("\"queue_wait_p95_ms\"").contains("\"audio_mean_s\"");
    assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, json)).isEmpty();
    String row = Exports.ladderCsv(a).lines().skip(1).findFirst().orElseThrow();
    assertThat(row).endsWith(",12.5,30.25,40.0,55.5,2.4");
    // an older artifact written again carries no breakdown key at all
    assertThat(ArtifactCodec.toJson(ArtifactCodec.readQmax(KOKORO_QMAX)))
        .doesNotContain("\"breakdown\"");
  }

  private static QmaxStep step(int n, StepBreakdown b) {
    return QmaxStep.of(
            new QmaxStep.Position(0, 0, n),
            QmaxStep.Counts.of(10, 10, 0),
            new QmaxStep.Throughput(1.0, n),
            new QmaxStep.ClientLatency(1.0, 2.0, 3.0, 4.0, 5.0),
            QmaxStep.Verdict.USABLE)
        .withBreakdown(b);
  }
}
