package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.chain.QuickstartRun;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The quickstart's closing summary, printed from a recorded run that raised trust flags. */
class QuickstartSummaryTest {
  static final Path DRIFTED = Path.of("..", "testdata", "quickstart-2026-12-02-drifted");

  @Test
  void summary_recordedRunThatDriftedAndMissed_carriesEveryTrustFlagOneLineEach() {
    QuickstartRun.Result r =
        new QuickstartRun.Result(
            ArtifactCodec.readQmax(
                DRIFTED.resolve("qmax-quickstart-http-stream-local500mcpu-21d2114e.json")),
            ArtifactCodec.readTtotal(
                DRIFTED.resolve("ttotal-quickstart-force-desired-local500mcpu-21d2114e.json")),
            ArtifactCodec.readPlan(DRIFTED.resolve("plan-quickstart.json")),
            ArtifactCodec.readValidate(DRIFTED.resolve("validate-quickstart.json")),
            ArtifactCodec.readReplay(DRIFTED.resolve("replay-quickstart.json")),
            null,
            new QuickstartRun.Output(
                DRIFTED, DRIFTED.resolve("report.html"), Map.of(), Duration.ofSeconds(357)),
            null);
    StringWriter text = new StringWriter();

    QuickstartCommand.summary(r, new PrintWriter(text, true));

    assertThat(text.toString())
        .contains(
            "  validate     fail (1)\n"
                + "  trust        5 flag(s), one per line:\n"
                + "    DRIFT: run 1's bisection rungs")
        .contains("\n    DRIFT: N=8 re-measured at the end of run 1, 54.2 s after")
        .contains("\n    RUNG: N=14 (run 1, rung 8) measured more than the endpoint: unstable:")
        .contains("\n    REPLAY MISS: shed_fraction predicted 22.1, measured 27.3: off by -5.2 pp")
        .contains("\n    REPLAY MISS: p95_ttfab_ms (minute 1) predicted 116.2, measured 50.6:");
  }

  @Test
  void summary_runWithTheSearchStep_printsItsLineBeforeValidate() {
    QuickstartRun.Result r =
        new QuickstartRun.Result(
            ArtifactCodec.readQmax(
                DRIFTED.resolve("qmax-quickstart-http-stream-local500mcpu-21d2114e.json")),
            ArtifactCodec.readTtotal(
                DRIFTED.resolve("ttotal-quickstart-force-desired-local500mcpu-21d2114e.json")),
            ArtifactCodec.readPlan(DRIFTED.resolve("plan-quickstart.json")),
            ArtifactCodec.readValidate(DRIFTED.resolve("validate-quickstart.json")),
            null,
            "not run",
            new QuickstartRun.Output(
                DRIFTED, DRIFTED.resolve("report.html"), Map.of(), Duration.ofSeconds(357)),
            "search chose c3: held out 99.95 % within the SLO");
    StringWriter text = new StringWriter();

    QuickstartCommand.summary(r, new PrintWriter(text, true));

    assertThat(text.toString())
        .contains(
            "\n  search       search chose c3: held out 99.95 % within the SLO\n"
                + "  validate     fail (1)\n");
  }
}
