package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.simulator.ColdStart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ramp's reference: the ladder's settled rung at the warm-up's N when it has a service time,
 * else the settled rung nearest that N, else the warm-up's last half. The warm-up here is 32
 * requests at N=4: 0–3 at 300 ms, 4–7 at 200, 8–15 at 120, and a last half (16–31) that slowed to
 * 150 ms, as cold2's did; the instance's rung at N=4 after it served at 100 ms.
 */
class WarmupRampReferenceTest {
  private static final Path KOKORO_QMAX =
      Path.of("../examples/kokoro-82m/qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json");

  private static WarmupRamp slowedLastHalf() {
    double[] s = new double[32];
    Arrays.fill(s, 0.15);
    Arrays.fill(s, 0, 4, 0.3);
    Arrays.fill(s, 4, 8, 0.2);
    Arrays.fill(s, 8, 16, 0.12);
    return WarmupRamp.of(4, s);
  }

  private static QmaxStep rung(int n, @Nullable Double serviceMeanMs) {
    return QmaxStep.of(
            new QmaxStep.Position(0, 0, n),
            QmaxStep.Counts.of(100, 100, 0),
            new QmaxStep.Throughput(10.0, n),
            new QmaxStep.ClientLatency(50.0, 60.0, 70.0, 300.0, 350.0),
            QmaxStep.Verdict.USABLE)
        .withBreakdown(new StepBreakdown(100L, 180.0, 240.0, 17.0, 25.0, 100L, 2.4, serviceMeanMs));
  }

  private static RungStability held(boolean stable) {
    return new RungStability(
        3, 10, 28, stable, 5.0, 6.0, List.of(new RungStability.Window(3, 8, 50, 10, 60.0, true)));
  }

  @Test
  void of_warmupAlone_referenceIsTheLastHalfAndSaysSo() {
    WarmupRamp r = slowedLastHalf();

    assertThat(r.referenceServiceMs()).isCloseTo(150, within(1e-9));
    assertThat(r.referenceSource()).isEqualTo(WarmupRamp.LAST_HALF);
    // against the slowed half: 2.0x, 1.33x, then 120 ms reads as warm
    ColdStart c = r.coldStart("x");
    assertThat(c.factor(0)).isCloseTo(2.0, within(1e-9));
    assertThat(c.factor(4)).isCloseTo(4.0 / 3, within(1e-9));
    assertThat(c.rampRequests()).isEqualTo(8);
  }

  @Test
  void withLadderReference_lastHalfSlowButRungFast_takesTheRungAndItsFactors() {
    WarmupRamp r =
        slowedLastHalf().withLadderReference(List.of(rung(1, 90.0), rung(2, 95.0), rung(4, 100.0)));

    assertThat(r.referenceServiceMs()).isCloseTo(100, within(1e-9));
    assertThat(r.referenceSource()).isEqualTo("ladder N=4 rung");
    assertThat(r.buckets()).isEqualTo(slowedLastHalf().buckets());
    assertThat(r.requests()).isEqualTo(32);
    ColdStart c = r.coldStart("the warm-up of q.json");
    assertThat(c.factor(0)).isCloseTo(3.0, within(1e-9));
    assertThat(c.factor(4)).isCloseTo(2.0, within(1e-9));
    assertThat(c.factor(8)).isCloseTo(1.2, within(1e-9));
    assertThat(c.factor(16)).isEqualTo(1.0);
    assertThat(c.rampRequests()).isEqualTo(16);
  }

  /**
   * A warm-up on a core probing 25 ms against a reference rung measured at 20 ms: each bucket is
   * taken x0.8, as it would have measured on the rung's host, so a slow core is not read as a
   * colder instance (measurements/simulator-calibration.md, "Runs h, i and j").
   */
  @Test
  void coldStart_warmupOnASlowerHost_bucketsBroughtToTheReferenceRungsHost() {
    WarmupRamp r =
        slowedLastHalf()
            .withHostCpuMs(25.0)
            .withLadderReference(List.of(rung(4, 100.0).withHostCpuMs(20.0)));

    assertThat(r.hostCpuMs()).isEqualTo(25.0);
    assertThat(r.referenceHostCpuMs()).isEqualTo(20.0);
    ColdStart c = r.coldStart("the warm-up of q.json");
    assertThat(c.factor(0)).isCloseTo(2.4, within(1e-9));
    assertThat(c.factor(4)).isCloseTo(1.6, within(1e-9));
    // 120 ms x 0.8 = 96 ms: warm
    assertThat(c.rampRequests()).isEqualTo(8);
    assertThat(c.source()).contains("x0.800 to the reference rung's host speed");
    // without the rung's host speed the buckets are taken as measured
    assertThat(
            slowedLastHalf()
                .withHostCpuMs(25.0)
                .withLadderReference(List.of(rung(4, 100.0)))
                .coldStart("x")
                .factor(0))
        .isCloseTo(3.0, within(1e-9));
  }

  @Test
  void withLadderReference_noRungAtTheWarmupsN_takesTheNearestSettledRung() {
    WarmupRamp r =
        slowedLastHalf().withLadderReference(List.of(rung(1, 90.0), rung(8, 100.0), rung(6, 95.0)));

    assertThat(r.referenceServiceMs()).isCloseTo(95, within(1e-9));
    assertThat(r.referenceSource()).isEqualTo("ladder N=6 rung");
  }

  @Test
  void withLadderReference_tieAroundTheWarmupsN_takesTheLowerN() {
    WarmupRamp r = slowedLastHalf().withLadderReference(List.of(rung(6, 110.0), rung(2, 100.0)));

    assertThat(r.referenceSource()).isEqualTo("ladder N=2 rung");
    assertThat(r.referenceServiceMs()).isCloseTo(100, within(1e-9));
  }

  @Test
  void withLadderReference_warmupsNUnsettled_takesTheNearestSettledRung() {
    // the quickstart of 2026-12-02 15:20: N=4 unstable as its host changed speed, the other rungs
    // settled at 71-78 ms; the warm-up's last half (102 ms) was itself still cold
    QmaxStep unstable = rung(4, 74.5).withStability(held(false));
    WarmupRamp r =
        slowedLastHalf()
            .withLadderReference(
                List.of(rung(1, 73.2), rung(2, 78.4), unstable, rung(8, 73.4), rung(16, 73.9)));

    assertThat(r.referenceSource()).isEqualTo("ladder N=2 rung");
    assertThat(r.referenceServiceMs()).isCloseTo(78.4, within(1e-9));
  }

  @Test
  void withLadderReference_noSettledRungAtAll_keepsTheLastHalf() {
    WarmupRamp r =
        slowedLastHalf()
            .withLadderReference(List.of(rung(2, null), rung(8, 100.0).withStability(held(false))));

    assertThat(r.referenceServiceMs()).isCloseTo(150, within(1e-9));
    assertThat(r.referenceSource()).isEqualTo(WarmupRamp.LAST_HALF);
    assertThat(r.coldStart("x").rampRequests()).isEqualTo(8);
  }

  @Test
  void withLadderReference_rungWithoutAServiceTime_keepsTheLastHalf() {
    QmaxStep noBreakdown = rung(4, 100.0).withBreakdown(null);

    assertThat(slowedLastHalf().withLadderReference(List.of(rung(4, null))).referenceServiceMs())
        .isCloseTo(150, within(1e-9));
    assertThat(slowedLastHalf().withLadderReference(List.of(noBreakdown)).referenceSource())
        .isEqualTo(WarmupRamp.LAST_HALF);
  }

  @Test
  void withLadderReference_unsettledRung_isPassedOverForASettledOne() {
    QmaxStep unstable = rung(4, 60.0).withStability(held(false));
    QmaxStep stable = rung(4, 100.0).withStability(held(true));

    assertThat(slowedLastHalf().withLadderReference(List.of(unstable)).referenceSource())
        .isEqualTo(WarmupRamp.LAST_HALF);
    assertThat(
            slowedLastHalf()
                .withLadderReference(List.of(unstable, rung(2, 70.0), stable, rung(4, 80.0)))
                .referenceServiceMs())
        .isCloseTo(100, within(1e-9));
  }

  @Test
  void withLadderReference_unusableRung_keepsTheLastHalf() {
    QmaxStep unusable =
        QmaxStep.of(
                new QmaxStep.Position(0, 0, 4),
                QmaxStep.Counts.of(100, 100, 0),
                new QmaxStep.Throughput(10.0, 4),
                new QmaxStep.ClientLatency(50.0, 60.0, 70.0, 300.0, 350.0),
                QmaxStep.Verdict.unusable("capacity changed"))
            .withBreakdown(new StepBreakdown(100L, 1.0, 2.0, 17.0, 25.0, 100L, 2.4, 100.0));

    assertThat(slowedLastHalf().withLadderReference(List.of(unusable)).referenceSource())
        .isEqualTo(WarmupRamp.LAST_HALF);
  }

  @Test
  void artifact_rampWithItsSource_validatesAndRoundTrips(@TempDir Path dir) throws Exception {
    QmaxArtifact q =
        ArtifactCodec.readQmax(KOKORO_QMAX)
            .withWarmupRamp(slowedLastHalf().withLadderReference(List.of(rung(4, 100.0))));

    String json = ArtifactCodec.toJson(q);

    assertThat(json).contains("\"reference_source\" : \"ladder N=4 rung\"");
    assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, json)).isEmpty();
    Path file = Files.writeString(dir.resolve("qmax.json"), json);
    QmaxArtifact read = ArtifactCodec.readQmax(file);
    assertThat(read.warmupRamp()).isEqualTo(q.warmupRamp());
    assertThat(read.coldStart("q.json").factor(0)).isCloseTo(3.0, within(1e-9));
  }

  @Test
  void artifact_rampFromAnOlderArtifact_writesNoSource() {
    QmaxArtifact q =
        ArtifactCodec.readQmax(KOKORO_QMAX)
            .withWarmupRamp(new WarmupRamp(4, 32, 150, slowedLastHalf().buckets()));

    String json = ArtifactCodec.toJson(q);

    assertThat(json).contains("\"warmup_ramp\"").doesNotContain("reference_source");
    assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, json)).isEmpty();
  }
}
