package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.IdleStartRung;
import dev.speechscale.artifacts.QmaxArtifact;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The idle-start rung in the lines the CLI and the report show (the recorded run has none). */
class QmaxTrustIdleStartTest {
  private static final QmaxArtifact RECORDED =
      ArtifactCodec.readQmax(
          QuickstartReportGoldenTest.RUN.resolve(
              "qmax-quickstart-http-stream-local500mcpu-038ffb50.json"));

  private static List<IdleStartRung.Served> served(int idle, int queued) {
    List<IdleStartRung.Served> s = new ArrayList<>();
    for (int i = 0; i < idle; i++) {
      s.add(new IdleStartRung.Served(0.2, 50.2, 16.2)); // service 50 ms, first byte 16 ms
    }
    for (int i = 0; i < queued; i++) {
      s.add(new IdleStartRung.Served(40, 102.5, 65)); // service 62.5 ms, first byte 25 ms
    }
    return s;
  }

  @Test
  void lines_withoutAnIdleStartRung_sayNothingOfIt() {
    assertThat(RECORDED.idleStart()).isNull();
    assertThat(QmaxTrust.lines(RECORDED)).noneMatch(l -> l.contains("idle-start"));
  }

  @Test
  void lines_withFactors_endWithTheRungAndTheFactorsTheSimulatorTakes() {
    QmaxArtifact a = RECORDED.withIdleStart(IdleStartRung.of(7.4, 0.45, 20, served(120, 40)));

    assertThat(QmaxTrust.lines(a).getLast())
        .startsWith("idle-start rung (open loop below saturation, idle / queued starts;")
        .contains("120 idle and 40 queued requests at 7.40 req/s")
        .contains("service 50.0 / 62.5 ms, first byte 16.0 / 25.0 ms")
        .endsWith("an idle start takes x0.800 the service, x0.640 the first byte");
  }

  @Test
  void lines_tooFewQueued_sayWhyThereAreNoFactors() {
    QmaxArtifact a = RECORDED.withIdleStart(IdleStartRung.of(7.4, 0.45, 12, served(110, 25)));

    assertThat(QmaxTrust.lines(a).getLast())
        .endsWith(
            "no factors (110 idle and 25 queued requests; 30 of each are needed for a factor)");
  }
}
