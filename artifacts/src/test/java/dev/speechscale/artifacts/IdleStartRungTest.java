package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.simulator.IdleStart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** qmax's open-loop rung below saturation, worked by hand. */
class IdleStartRungTest {
  /** {@code idle} requests that did not wait (0.4 ms), {@code queued} that waited 30 ms. */
  private static List<IdleStartRung.Served> served(int idle, int queued) {
    List<IdleStartRung.Served> s = new ArrayList<>();
    for (int i = 0; i < idle; i++) {
      // service 50 ms, first byte 16 ms after the start
      s.add(new IdleStartRung.Served(0.4, 50.4, 16.4));
    }
    for (int i = 0; i < queued; i++) {
      // service 62.5 ms, first byte 25 ms after the start
      s.add(new IdleStartRung.Served(30, 92.5, 55));
    }
    return s;
  }

  @Test
  void of_splitsAtOneMillisecondOfQueueWait_andTheFactorsAreTheMeansRatios() {
    IdleStartRung r = IdleStartRung.of(7.2, 0.45, 30, served(40, 35));

    assertThat(r.idleRequests()).isEqualTo(40);
    assertThat(r.queuedRequests()).isEqualTo(35);
    assertThat(r.idleServiceMs()).isCloseTo(50, within(1e-9));
    assertThat(r.queuedServiceMs()).isCloseTo(62.5, within(1e-9));
    assertThat(r.note()).isNull();
    IdleStart f = r.idleStart("qmax-a.json").orElseThrow();
    assertThat(f.serviceFactor()).isCloseTo(0.8, within(1e-12));
    assertThat(f.firstByteFactor()).isCloseTo(16.0 / 25, within(1e-12));
    assertThat(f.source()).contains("qmax-a.json").contains("40 idle against 35 queued");
    assertThat(r.summary())
        .endsWith("an idle start takes x0.800 the service, x0.640 the first byte");
  }

  @Test
  void of_exactlyOneMillisecondWaited_countsAsQueued() {
    IdleStartRung r = IdleStartRung.of(1, 0.45, 1, List.of(new IdleStartRung.Served(1.0, 60, 20)));

    assertThat(r.queuedRequests()).isEqualTo(1);
    assertThat(r.idleRequests()).isZero();
    assertThat(r.idleServiceMs()).isNull();
  }

  @Test
  void idleStart_fewerThanThirtyOfEitherKind_isNoneAndTheNoteSaysWhy() {
    IdleStartRung r = IdleStartRung.of(7.2, 0.45, 30, served(29, 80));

    assertThat(r.idleStart("q.json")).isEmpty();
    assertThat(r.note())
        .isEqualTo("29 idle and 80 queued requests; 30 of each are needed for a factor");
    assertThat(r.summary()).endsWith(": no factors (" + r.note() + ")");
  }

  @Test
  void artifact_withTheRung_validatesRoundTripsAndGivesTheFactors(@TempDir Path dir)
      throws Exception {
    QmaxArtifact q =
        ArtifactCodec.readQmax(Examples.QMAX)
            .withIdleStart(IdleStartRung.of(7.2, 0.45, 30, served(40, 35)));

    String json = ArtifactCodec.toJson(q);

    assertThat(json).contains("\"idle_start\"").contains("\"queued_service_ms\" : 62.5");
    assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, json)).isEmpty();
    QmaxArtifact read = ArtifactCodec.readQmax(Files.writeString(dir.resolve("q.json"), json));
    assertThat(read.idleStart()).isEqualTo(q.idleStart());
    assertThat(read.idleStartFactors("runs/q.json").serviceFactor()).isCloseTo(0.8, within(1e-12));
    // the derived fields are recomputed through the one copy, which keeps the rung
    assertThat(read.withDerived().idleStart()).isEqualTo(q.idleStart());
  }

  @Test
  void artifact_olderWithoutTheRung_writesNoneAndServesIdleStartsAlike() {
    QmaxArtifact q = ArtifactCodec.readQmax(Examples.QMAX);

    assertThat(q.idleStart()).isNull();
    assertThat(ArtifactCodec.toJson(q)).doesNotContain("idle_start");
    assertThat(q.idleStartFactors("q.json")).isEqualTo(IdleStart.NONE);
  }
}
