package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.simulator.ColdStart;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScaleOutColdStartTest {
  private static final Path N = Path.of("..", "testdata", "quiet-2026-12-04n");
  private static final String QMAX = "qmax-quickstart-http-stream-local500mcpu-2a6e114d.json";
  private static final String TTOTAL = "ttotal-quickstart-force-desired-local500mcpu-2a6e114d.json";

  private static NewInstanceService measured(double... ratios) {
    List<NewInstanceService.Served> s = new ArrayList<>();
    s.add(new NewInstanceService.Served(-5, "old", 60, true));
    for (int w = 0; w < ratios.length; w++) {
      for (int i = 0; i < 10; i++) {
        s.add(new NewInstanceService.Served(w * 15 + i, "new", 60 * ratios[w], false));
        s.add(new NewInstanceService.Served(w * 15 + i, "old", 60, false));
      }
    }
    return NewInstanceService.of(s, 15 * ratios.length);
  }

  @Test
  void ttotalWithoutTheNewInstance_keepsQmaxsRequestRamp() throws Exception {
    QmaxArtifact q = ArtifactCodec.readQmax(N.resolve(QMAX));
    TtotalArtifact t = ArtifactCodec.readTtotal(N.resolve(TTOTAL));

    ColdStart c = ScaleOutColdStart.of(List.of(new StartupDelaySamples.Input(t, TTOTAL)), q, QMAX);

    assertThat(c).isEqualTo(q.coldStart(QMAX));
    assertThat(c.steps()).isNotEmpty(); // run n's warm-up ramp, 6.83x for its first 4 requests
  }

  @Test
  void ttotalWithTheNewInstance_givesItsWindowsAsTheColdStartInstead() throws Exception {
    QmaxArtifact q = ArtifactCodec.readQmax(N.resolve(QMAX));
    TtotalArtifact t = ArtifactCodec.readTtotal(N.resolve(TTOTAL));
    TtotalArtifact a = t.withNewInstance(measured(1.5, 1.4, 1.2, 1.0));
    TtotalArtifact b = t.withNewInstance(measured(1.3, 1.4, 1.0, 1.0));

    ColdStart c =
        ScaleOutColdStart.of(
            List.of(
                new StartupDelaySamples.Input(a, "/x/ttotal-a.json"),
                new StartupDelaySamples.Input(t, "/x/ttotal-old.json"),
                new StartupDelaySamples.Input(b, "/x/ttotal-b.json")),
            q,
            QMAX);

    // pooled: 20 requests of the new instance per window over both runs, 1.4, 1.4 and 1.1
    assertThat(c.steps()).extracting(ColdStart.Step::untilRequest).containsExactly(20, 40, 60);
    assertThat(c.factor(0)).isCloseTo(1.4, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(c.factor(45)).isCloseTo(1.1, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(c.factor(60)).isEqualTo(1.0);
    assertThat(c.source())
        .isEqualTo(
            "the scale-out's new instance against the old one per 15 s in service in ttotal-a.json,"
                + " ttotal-b.json");
  }

  @Test
  void ttotalMeasuredTheNewInstanceWarm_isNoColdStartNotTheRequestRamp() throws Exception {
    QmaxArtifact q = ArtifactCodec.readQmax(N.resolve(QMAX));
    TtotalArtifact t = ArtifactCodec.readTtotal(N.resolve(TTOTAL));
    TtotalArtifact warm = t.withNewInstance(measured(1.02, 1.0));

    ColdStart c =
        ScaleOutColdStart.of(List.of(new StartupDelaySamples.Input(warm, "ttotal.json")), q, QMAX);

    assertThat(c.none()).isTrue();
    assertThat(c.source()).contains("ttotal.json");
  }
}
