package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The ladder as CSV, a histogram as .hgrm, the event log as CSV. */
class ExportsTest {
  private static final Path KOKORO_QMAX =
      Path.of("../examples/kokoro-82m/qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json");

  @Test
  void ladderCsv_kokoro_oneRowPerStepSortedByNWithTheArtifactsValues() {
    QmaxArtifact q = ArtifactCodec.readQmax(KOKORO_QMAX);

    List<String> lines = Exports.ladderCsv(q).lines().toList();

    assertThat(lines).hasSize(q.steps().size() + 1);
    assertThat(lines.get(0))
        .startsWith("run,step,concurrency,")
        .contains(",ttfab_drift_ms,")
        .endsWith(",engine_first_chunk_p95_ms,audio_mean_s");
    List<Integer> ns =
        lines.stream().skip(1).map(l -> Integer.parseInt(l.split(",", -1)[2])).toList();
    assertThat(ns).isSorted();
    QmaxStep first =
        q.steps().stream()
            .min(java.util.Comparator.comparingInt(QmaxStep::concurrency))
            .orElseThrow();
    String[] cells = lines.get(1).split(",", -1);
    assertThat(cells).hasSize(Exports.LADDER_COLUMNS.size());
    assertThat(cells[9]).isEqualTo(String.valueOf(first.ttfabP95Ms()));
  }

  @Test
  void hgrm_knownValues_isThePercentileDistributionInMilliseconds() {
    Histogram h = Histograms.newMicros();
    for (int i = 1; i <= 100; i++) {
      h.recordValue(i * 1000L); // 1..100 ms
    }

    String text = Exports.hgrm(Histograms.encode(h));

    assertThat(text.lines().findFirst().orElseThrow()).contains("Value").contains("Percentile");
    // HdrHistogram reports bucket midpoints at 3 significant digits: 50.504, not 50.5
    assertThat(text)
        .contains("#[Mean    =       50.504")
        .contains("Total count    =          100]");
    // the 50th percentile row: 50 ms at 0.5
    assertThat(text.lines().filter(l -> l.contains("0.500000000000")).findFirst().orElseThrow())
        .startsWith("      50.015");
  }

  @Test
  void hgrm_notAHistogram_isRefused() {
    assertThatThrownBy(() -> Exports.hgrm("bm90IGEgaGlzdG9ncmFt"))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("not an encoded HdrHistogram");
  }

  @Test
  void eventsCsv_okAndDroppedAndQuotedError_oneRowEachWithEmptyCellsForMissingKeys() {
    List<String> lines =
        List.of(
            "{\"load_model\":\"open-loop\",\"step_index\":0,\"seq\":1,\"intended_at\":\"t1\","
                + "\"ttfab_ms\":12.5,\"outcome\":\"OK\",\"status\":200,\"error\":null}",
            "",
            "{\"load_model\":\"open-loop\",\"step_index\":0,\"seq\":2,\"intended_at\":\"t2\","
                + "\"outcome\":\"DROPPED\"}",
            "{\"seq\":3,\"outcome\":\"SERVER_ERROR\",\"error\":\"bad, \\\"very\\\" bad\"}",
            "{\"seq\":4,\"outcome\":\"OK\",\"error\":null,\"queue_wait_ms\":120.5,"
                + "\"engine_first_chunk_ms\":40.25,\"audio_s\":2.4125,\"instance\":\"i-b\"}");

    List<String> rows = Exports.eventsCsv("events.jsonl", lines).lines().toList();

    assertThat(rows).hasSize(5);
    assertThat(rows.get(0)).isEqualTo(String.join(",", Exports.EVENT_COLUMNS));
    // a log from before the server breakdown: its four columns are empty
    assertThat(rows.get(1)).isEqualTo("open-loop,,0,,1,,t1,,,,12.5,,OK,200,,,,,,,");
    assertThat(rows.get(2)).isEqualTo("open-loop,,0,,2,,t2,,,,,,DROPPED,,,,,,,,");
    assertThat(rows.get(3)).endsWith(",SERVER_ERROR,,,,\"bad, \"\"very\"\" bad\",,,,");
    assertThat(rows.get(4)).endsWith(",OK,,,,,120.5,40.25,2.4125,i-b");
  }

  @Test
  void eventsCsv_lineNotAnObject_namesFileLineAndValue() {
    assertThatThrownBy(() -> Exports.eventsCsv("ev.jsonl", List.of("{\"seq\":1}", "oops")))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("ev.jsonl line 2 is not a JSON object: oops");
  }
}
