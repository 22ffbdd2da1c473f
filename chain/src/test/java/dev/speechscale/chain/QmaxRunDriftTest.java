package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxDrift;
import dev.speechscale.artifacts.QmaxRecheck;
import dev.speechscale.artifacts.QmaxRewarm;
import dev.speechscale.capacity.Finding;
import dev.speechscale.capacity.Load;
import dev.speechscale.capacity.Scenario;
import dev.speechscale.capacity.Verdict;
import dev.speechscale.loadgen.DriftRecheck;
import dev.speechscale.loadgen.LadderListener;
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.loadgen.RungReport;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * qmax's drift check end to end on fake time: an endpoint answering on a fake monotonic clock
 * (first audio after {@code firstAudioNanos}, done after twice that), a ladder at N=1, and the
 * reference rung re-measured at the end. When the endpoint slows down for the re-check, the
 * artifact carries the drift, {@code tts-bench qmax} prints it and the plan warns; when it does
 * not, the figures agree exactly (fake time has no noise).
 */
class QmaxRunDriftTest {
  private static final Instant WALL = FakeTimeQmax.WALL;
  @TempDir Path dir;

  /**
   * Runs qmax at N=1 (10 s holds in fake time); the endpoint answers in 100 ms until the re-check.
   */
  private static QmaxArtifact qmax(long recheckFirstAudioMs) {
    // no rewarm: the drift is only flagged, as before issue 37's item 7
    return qmax(
        recheckFirstAudioMs,
        FakeTimeQmax.oneRung().withDrift(DriftRecheck.DEFAULT.withRewarmBudget(Duration.ZERO)));
  }

  /** As {@link #qmax(long)} with the ladder {@code spec}. */
  private static QmaxArtifact qmax(long recheckFirstAudioMs, LadderSpec spec) {
    AtomicLong firstAudioNanos = new AtomicLong(Duration.ofMillis(100).toNanos());
    LadderListener drifting =
        new LadderListener() {
          @Override
          public void rungStarted(Progress p) {
            if (p.phase() == RungReport.Phase.RECHECK) {
              firstAudioNanos.set(Duration.ofMillis(recheckFirstAudioMs).toNanos());
            }
          }
        };
    // no queue bound: the plan's other trust checks pass
    return FakeTimeQmax.run(
        OptionalInt.of(0),
        nowNanos -> FakeTimedEndpoint.of(nowNanos, firstAudioNanos),
        spec,
        drifting);
  }

  private Finding measurementTrust(QmaxArtifact a) {
    Path file = dir.resolve(a.defaultFileName());
    ArtifactCodec.write(file, a);
    PlanRun.Result r =
        PlanRun.run(
            new PlanRun.Options(
                file,
                null,
                Duration.ofSeconds(60),
                new Scenario(1, 1.25, new Load.RequestRate(10), null, 1, 0.10, 60, 1, 0),
                null,
                false,
                "test",
                Map.of()),
            line -> {},
            WALL);
    return r.plan().finding("measurement_trust");
  }

  @Test
  void run_endpointSlowerAtTheRecheck_artifactTrustLinesAndPlanAllSayDrift() {
    QmaxArtifact a = qmax(130);

    QmaxDrift drift = a.drift();
    assertThat(drift.drifted()).isTrue();
    QmaxRecheck r = drift.rechecks().getFirst();
    assertThat(r.concurrency()).isEqualTo(1);
    assertThat(r.firstRps()).isEqualTo(5.0); // 200 ms per request on fake time
    assertThat(r.firstP95Ms()).isEqualTo(100.0);
    assertThat(r.remeasuredP95Ms()).isEqualTo(130.0);
    assertThat(r.p95ChangePct()).isEqualTo(30.0);
    assertThat(r.throughputChangePct()).isLessThan(-10);
    assertThat(a.steps()).hasSize(1);
    assertThat(a.qMax()).isEqualTo(1);
    assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, ArtifactCodec.toJson(a))).isEmpty();

    assertThat(QmaxTrust.lines(a))
        .anyMatch(l -> l.startsWith("DRIFT: N=1 re-measured at the end of run 1"))
        .anyMatch(l -> l.contains("p95 TTFAB 100 -> 130 ms (+30.0 %, tolerance 15 %)"))
        .anyMatch(l -> l.startsWith("the ladder drifted (1 of 1 re-measurements beyond"));

    Finding trust = measurementTrust(a);
    assertThat(trust.verdict()).isEqualTo(Verdict.WARN);
    assertThat(trust.detail())
        .contains("the ladder drifted")
        .contains("p95 TTFAB 100 -> 130 ms (+30.0 %, tolerance 15 %)");
    assertThat(trust.recommendation()).contains("quiet machine");
  }

  @Test
  void run_endpointSettledAtTheRecheck_rewarmMeasuresAgainAndThePlanTrustsIt() {
    // the endpoint moves to 130 ms at the re-check and stays there; nothing probes the host, so
    // qmax takes it for the instance settling, holds the warm-up windows and measures again
    QmaxArtifact a = qmax(130, FakeTimeQmax.oneRung());

    QmaxDrift drift = a.drift();
    assertThat(drift.rechecks()).as("%s", drift.rewarms()).hasSize(2);
    assertThat(drift.rechecks().getFirst().beyondTolerance()).isTrue();
    assertThat(drift.drifted()).isFalse();
    QmaxRewarm w = drift.rewarms().getFirst();
    assertThat(w.outcome()).isEqualTo(QmaxRewarm.REMEASURED);
    assertThat(w.hostChangePct()).isNull();
    assertThat(w.rewarmStable()).isTrue();
    assertThat(w.remeasuredRungs()).containsExactly(1);
    assertThat(w.qMaxBefore()).isEqualTo(1);
    assertThat(w.extraS()).isPositive();
    assertThat(a.steps())
        .singleElement()
        .satisfies(s -> assertThat(s.ttfabP95Ms()).isEqualTo(130.0));
    assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, ArtifactCodec.toJson(a))).isEmpty();
    assertThat(QmaxTrust.lines(a))
        .anyMatch(l -> l.startsWith("drift re-check superseded"))
        .anyMatch(l -> l.startsWith("drift rewarm, run 1: remeasured"))
        .noneMatch(l -> l.startsWith("DRIFT: "));
    assertThat(measurementTrust(a).verdict()).isEqualTo(Verdict.OK);
  }

  @Test
  void run_steadyEndpoint_recheckAgreesAndThePlanTrustsQmax() {
    QmaxArtifact a = qmax(100);

    QmaxRecheck r = a.drift().rechecks().getFirst();
    assertThat(r.throughputChangePct()).isZero();
    assertThat(r.p95ChangePct()).isZero();
    assertThat(a.drift().drifted()).isFalse();
    assertThat(QmaxTrust.lines(a)).anyMatch(l -> l.startsWith("drift check ok: N=1"));
    Finding trust = measurementTrust(a);
    assertThat(trust.verdict()).isEqualTo(Verdict.OK);
    assertThat(trust.detail()).contains("the ladder did not drift");
  }
}
