package dev.speechscale.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The text tables {@code replay} and {@code ttotal} print, pinned on the recorded run of 2026-12-01
 * 22:32 UTC ({@code testdata/quickstart-2026-12-01-2232}); the text was byte-identical before it
 * moved here from {@code cli}.
 */
class TextTablesTest {
  private static final Path DIR = Path.of("..", "testdata", "quickstart-2026-12-01-2232");

  private static String printed(Consumer<PrintWriter> print) {
    StringWriter s = new StringWriter();
    try (PrintWriter w = new PrintWriter(s)) {
      print.accept(w);
    }
    return s.toString();
  }

  @Test
  void replayTable_recordedCalibration_printsPredictedBesideMeasuredAndTheVerdict() {
    String text =
        printed(w ->
            ReplayTable.print(ArtifactCodec.readReplay(DIR.resolve("replay-quickstart.json")), w));

    assertThat(text.lines())
        .containsExactly(
            "replay speech-quickstart: examples/quickstart/trace-calibration.csv: 3 rate intervals"
                + " from 0 s to 90 s, peak 29.69 req/s, seed 1, surge at 20 s",
            "  arrivals 1570 predicted, 1570 measured (1 late sends); start-up delay 2.3 s; metric"
                + " delay 0 s",
            "figure                      predicted   measured      error   target  result",
            "shed fraction                 22.29 %    23.57 %    -1.3 pp    ±2 pp  WITHIN",
            "surge to in service            33.0 s     33.2 s     -0.6 %    ±15 %  WITHIN",
            "p95 TTFAB min 0                971 ms    1131 ms    -14.1 %           NOT JUDGED (the"
                + " surge minute: detection timing dominates it)",
            "p95 TTFAB min 1                 22 ms      21 ms     +2.1 %    ±15 %  WITHIN",
            "instances in service min 0       1.12       1.12       0.0            NOT JUDGED",
            "instances in service min 1       2.00       2.00       0.0            NOT JUDGED",
            "scaling predicted: desired 1->2 at 50.0 s, in_service 1->2 at 53.0 s",
            "scaling measured:  desired 1->2 at 51.0 s, in_service 1->2 at 53.2 s",
            "verdict: within");
  }

  @Test
  void ttotalTable_oneRecordedScaleOut_printsEachStageItsShareAndNoSpread() {
    String text =
        printed(w ->
            TtotalTable.print(
                ArtifactCodec.readTtotal(
                    DIR.resolve("ttotal-quickstart-force-desired-local500mcpu-038ffb50.json")),
                w));

    assertThat(text.lines())
        .containsExactly(
            "T_total 2.5 s measured + 60.0 s policy lag bound = 62.5 s",
            "  desired_set       -> instance_logging     0.850 s   33.5%  (bounded)",
            "  instance_logging  -> container_started    0.000 s    0.0%  (bounded)",
            "  container_started -> framework_init       0.774 s   30.5%  (bounded)",
            "  framework_init    -> weights_ready        0.278 s   10.9%",
            "  weights_ready     -> warmup_done          0.220 s    8.7%",
            "  warmup_done       -> ready                0.013 s    0.5%",
            "  ready             -> in_service           0.213 s    8.4%  (bounded)",
            "  in_service        -> traffic_recovered    0.193 s    7.6%  (bounded)",
            "1 scale-out timed (--runs N times more and records the spread)");
  }

  @Test
  void signed_smallNegativeError_isZeroWithoutASign() {
    // the quickstart's replay printed a surge-to-in-service error of "-0.0 %"
    assertThat(ReplayTable.signed(-0.04)).isEqualTo("0.0");
    assertThat(ReplayTable.signed(0.0)).isEqualTo("0.0");
    assertThat(ReplayTable.signed(-2.94)).isEqualTo("-2.9");
    assertThat(ReplayTable.signed(1.25)).isEqualTo("+1.3");
  }

  @Test
  void replayTable_warmupSpeedAndLiveHistory_arePrintedUnderTheArrivals(@TempDir Path tmp)
      throws java.io.IOException {
    String json =
        java.nio.file.Files.readString(DIR.resolve("replay-quickstart.json"))
            .replace(
                "\"initial_in_service\" : 1",
                "\"initial_in_service\" : 1, \"warmup\" : {\"concurrency\" : 4, \"requests\" :"
                    + " 150, \"seconds\" : 10.0, \"served_rps\" : 15.0, \"ladder_rps\" : 13.0,"
                    + " \"ratio\" : 1.1538, \"applied\" : true, \"note\" : \"X_sat ...\"},"
                    + " \"history_concurrency\" : [null, null, 0.5, 1.0]");
    Path file = java.nio.file.Files.writeString(tmp.resolve("replay.json"), json);

    String text = printed(w -> ReplayTable.print(ArtifactCodec.readReplay(file), w));

    assertThat(text.lines().toList().subList(2, 4))
        .containsExactly(
            "  instance speed: the warm-up at N=4 served 15.00 req/s (150 requests in 10.0 s), the"
                + " ladder 13.00: x1.154; applied to X_sat",
            "  alarm history: the endpoint's own 4 s before the trace (2 with a sample), read back"
                + " for the prediction's alarms");
    // an artifact from before --initial-instances says nothing of it
    assertThat(text).doesNotContain("initial instance:");
  }

  @Test
  void replayTable_initialInstances_saysHowThePredictionTookTheInstance(@TempDir Path tmp)
      throws java.io.IOException {
    String base = java.nio.file.Files.readString(DIR.resolve("replay-quickstart.json"));
    String warmup =
        "\"initial_in_service\" : 1, \"warmup\" : {\"concurrency\" : 4, \"requests\" : 150,"
            + " \"seconds\" : 10.0, \"served_rps\" : 15.0, \"applied\" : false, \"note\" :"
            + " \"ladder\", \"initial_served\" : 290}";
    String fresh = withParameter(base, "fresh").replace("\"initial_in_service\" : 1", warmup);
    String freshUnwarmed = withParameter(base, "fresh");
    String warm = withParameter(base, "warm").replace("\"initial_in_service\" : 1", warmup);

    assertThat(initialLine(tmp, fresh))
        .isEqualTo(
            "  initial instance: deployed for the replay, 290 requests served in its warm-up,"
                + " predicted along the scale-out's cold start from there");
    assertThat(initialLine(tmp, freshUnwarmed))
        .isEqualTo(
            "  initial instance: deployed for the replay and not warmed, predicted along the"
                + " scale-out's cold start from its first request");
    assertThat(initialLine(tmp, warm))
        .isEqualTo(
            "  initial instance: in service before the replay (--initial-instances warm),"
                + " predicted as warm as qmax's ladder instance");
  }

  /** The replay artifact {@code json} with {@code initial_instances} among its parameters. */
  private static String withParameter(String json, String initialInstances) {
    String withIt =
        json.replaceFirst(
            "\"parameters\" : \\{",
            "\"parameters\" : { \"initial_instances\" : \"" + initialInstances + "\",");
    assertThat(withIt).isNotEqualTo(json);
    return withIt;
  }

  private static String initialLine(Path tmp, String json) throws java.io.IOException {
    Path file = java.nio.file.Files.writeString(tmp.resolve("replay.json"), json);
    String text = printed(w -> ReplayTable.print(ArtifactCodec.readReplay(file), w));
    return text.lines().filter(l -> l.contains("initial instance:")).findFirst().orElseThrow();
  }
}
