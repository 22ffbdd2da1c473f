package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.report.QuickstartReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The page {@code quickstart} writes, byte for byte: rendered from the artifacts of a recorded run
 * ({@code testdata/quickstart-2026-12-01-2232}, every section present: rung checks, the Q_max
 * interval, a replay, and the quickstart's policy search run on those artifacts) and compared with
 * the page the code wrote for them when the golden file was made. A change to the page changes the
 * golden file in the same commit, on purpose, and only by additions that the commit names: rewrite
 * it with
 *
 * <pre>
 * mvn -o -B -pl chain -am verify -Dtest='QuickstartReportGoldenTest' \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dgolden.update=true
 * </pre>
 *
 * <p>and read {@code git diff} before committing. Without the property nothing is written. The page
 * carries no machine-specific value (host, JVM): it renders the recorded artifacts' fields, not the
 * machine that renders them, so nothing is normalised.
 */
class QuickstartReportGoldenTest {
  static final Path RUN = Path.of("..", "testdata", "quickstart-2026-12-01-2232");
  static final Path GOLDEN = Path.of("src", "test", "resources", "quickstart-report.golden");
  static final String TITLE = "SpeechScale quickstart: speech-quickstart";

  /** Rerun lines as quickstart writes them, an absolute path included (kept: it is a command). */
  static Map<String, String> commands() {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("deploy", "bin/speech-infra deploy --model quickstart --config /runs/q/endpoints.yaml");
    c.put("drift", "bin/tts-bench drift --model quickstart --config /runs/q/endpoints.yaml");
    c.put(
        "plan",
        "bin/tts-bench plan --qmax /runs/q/qmax.json --ttotal /runs/q/ttotal.json --peak-rps 37"
            + " --output /runs/q/plan-quickstart.json");
    return c;
  }

  /**
   * The page as {@code QuickstartSteps} composes it: the report module's, with chain's trust lines.
   */
  static String page() {
    QmaxArtifact q =
        ArtifactCodec.readQmax(
            RUN.resolve("qmax-quickstart-http-stream-local500mcpu-038ffb50.json"));
    return QuickstartReport.html(
        new QuickstartReport.Inputs(
            TITLE,
            q,
            QmaxTrust.lines(q),
            ArtifactCodec.readTtotal(
                RUN.resolve("ttotal-quickstart-force-desired-local500mcpu-038ffb50.json")),
            ArtifactCodec.readPlan(RUN.resolve("plan-quickstart.json")),
            ArtifactCodec.readValidate(RUN.resolve("validate-quickstart.json")),
            ArtifactCodec.readDrift(RUN.resolve("drift-quickstart.json")),
            commands(),
            ArtifactCodec.readReplay(RUN.resolve("replay-quickstart.json")),
            null,
            search().view()));
  }

  /** The quickstart's search on the recorded run's artifacts, written under target/. */
  static QuickstartSearch.Found search() {
    try {
      return QuickstartSearchTest.search(
          Files.createDirectories(Path.of("target", "quickstart-golden-search")));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void html_recordedRun_isTheGoldenPageByteForByte() throws IOException {
    String page = page();
    if (Boolean.getBoolean("golden.update")) {
      Files.writeString(GOLDEN, page, StandardCharsets.UTF_8);
      return;
    }

    assertThat(page)
        .as(
            "the quickstart page differs from %s; if the change is intended, rewrite it with"
                + " -Dgolden.update=true (see this class's Javadoc) and read the git diff",
            GOLDEN.toAbsolutePath())
        .isEqualTo(Files.readString(GOLDEN, StandardCharsets.UTF_8));
  }

  @Test
  void html_recordedRun_showsTheTrustLinesAndTheReplay() {
    assertThat(page())
        .contains("<p class=\"trust\">Q_max range 21–21 given each rung's 95% p95 interval")
        .contains("<h2>Simulator against the live fleet (replay)</h2>");
  }
}
