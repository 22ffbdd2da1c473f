package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ReplayArtifact;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The quickstart's trust flags, from a recorded run that raised them and one that did not. */
class QuickstartFlagsTest {
  static final Path DRIFTED = Path.of("..", "testdata", "quickstart-2026-12-02-drifted");
  static final QmaxArtifact DRIFTED_QMAX =
      ArtifactCodec.readQmax(
          DRIFTED.resolve("qmax-quickstart-http-stream-local500mcpu-21d2114e.json"));
  static final ReplayArtifact DRIFTED_REPLAY =
      ArtifactCodec.readReplay(DRIFTED.resolve("replay-quickstart.json"));

  @Test
  void lines_recordedRunThatDriftedAndMissed_isOneLinePerFlag() {
    List<String> flags = QuickstartFlags.lines(DRIFTED_QMAX, DRIFTED_REPLAY, null);

    assertThat(flags)
        .containsExactly(
            "DRIFT: run 1's bisection rungs (N req/s: 12@15.2, 14@15.0, 13@13.8; mean 14.7) ran"
                + " 12.7 % slower than the coarse rungs around them (N=8 17.2 and N=16 16.8 req/s;"
                + " tolerance 10 %): Q_max 13 measured the machine as well as the endpoint, and the"
                + " plan will warn (measurement_trust)",
            "DRIFT: N=8 re-measured at the end of run 1, 54.2 s after its first measurement:"
                + " throughput 17.2 -> 15.2 req/s (-11.6 %, tolerance 10 %), p95 TTFAB 541 -> 574"
                + " ms (+6.2 %, tolerance 15 %)",
            "RUNG: N=14 (run 1, rung 8) measured more than the endpoint: unstable: the window's"
                + " halves gave 16.4 and 13.6 req/s, p95 893 and 1097 ms",
            "REPLAY MISS: shed_fraction predicted 22.1, measured 27.3: off by -5.2 pp, beyond"
                + " ±2.0 pp",
            "REPLAY MISS: p95_ttfab_ms (minute 1) predicted 116.2, measured 50.6: off by 129.6 %,"
                + " beyond ±15.0 %");
  }

  @Test
  void lines_recordedCleanRun_isEmpty() {
    Path clean = Path.of("..", "testdata", "quickstart-2026-12-01-2232");
    QmaxArtifact qmax =
        ArtifactCodec.readQmax(
            clean.resolve("qmax-quickstart-http-stream-local500mcpu-038ffb50.json"));
    ReplayArtifact replay = ArtifactCodec.readReplay(clean.resolve("replay-quickstart.json"));

    assertThat(QuickstartFlags.lines(qmax, replay, null)).isEmpty();
  }

  @Test
  void lines_replayThatDidNotRun_saysWhy() {
    Path clean = Path.of("..", "testdata", "quickstart-2026-12-01-2232");
    QmaxArtifact qmax =
        ArtifactCodec.readQmax(
            clean.resolve("qmax-quickstart-http-stream-local500mcpu-038ffb50.json"));

    assertThat(QuickstartFlags.lines(qmax, null, "the plan attaches no scaling"))
        .containsExactly(
            "REPLAY NOT RUN: the plan attaches no scaling; the simulator's predictions are"
                + " unchecked");
  }
}
