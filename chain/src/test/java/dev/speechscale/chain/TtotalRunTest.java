package dev.speechscale.chain;

import static dev.speechscale.chain.Recorded.ladder;
import static dev.speechscale.chain.Recorded.step;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.artifacts.Artifact;
import dev.speechscale.artifacts.Header;
import dev.speechscale.artifacts.NewInstanceService;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.TtotalArtifact.TimelineEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TtotalRunTest {
  static final Instant T0 = Instant.parse("2026-11-30T09:54:00Z");
  static final Duration WINDOW = Duration.ofSeconds(10);
  static final double TARGET_MS = 500;

  // ---- monotone ----

  static TimelineEntry entry(String stage, long atMs, boolean bounded, String note) {
    return new TimelineEntry(stage, T0.plusMillis(atMs), "source of " + stage, bounded, note);
  }

  static Map<String, TimelineEntry> timeline(TimelineEntry... entries) {
    Map<String, TimelineEntry> m = new LinkedHashMap<>();
    for (TimelineEntry e : entries) {
      m.put(e.stage(), e);
    }
    return m;
  }

  @Test
  void monotone_stagesAlreadyInOrder_areKeptAsObservedWithNoNotes() {
    Map<String, TimelineEntry> t =
        timeline(
            entry("desired_set", 0, false, "the clock starts here"),
            entry("instance_logging", 274, true, null),
            entry("in_service", 8_000, true, null),
            entry("traffic_recovered", 8_500, true, null));
    List<String> notes = new ArrayList<>();

    List<TimelineEntry> out = ScaleOutObserver.monotone(t, notes);

    assertThat(out).containsExactlyElementsOf(t.values());
    assertThat(notes).isEmpty();
  }

  @Test
  void monotone_stagesObservedOutOfOrder_comeOutInSemanticOrder() {
    Map<String, TimelineEntry> t =
        timeline(
            entry("in_service", 8_000, true, null),
            entry("ready", 7_000, false, null),
            entry("desired_set", 0, false, null),
            entry("traffic_recovered", 8_500, true, null),
            entry("framework_init", 3_000, false, null));

    List<TimelineEntry> out = ScaleOutObserver.monotone(t, new ArrayList<>());

    assertThat(out)
        .extracting(TimelineEntry::stage)
        .containsExactly(
            "desired_set", "framework_init", "ready", "in_service", "traffic_recovered");
  }

  @Test
  void monotone_stageEarlierThanItsPredecessor_isMovedToItBoundedAndNoted() {
    Map<String, TimelineEntry> t =
        timeline(
            entry("desired_set", 0, false, null),
            entry("instance_logging", 500, true, null),
            entry("container_started", 226, true, "reconstructed as framework_init minus 2.929"),
            entry("framework_init", 3_155, false, null));
    List<String> notes = new ArrayList<>();

    List<TimelineEntry> out = ScaleOutObserver.monotone(t, notes);

    TimelineEntry moved = out.get(2);
    assertThat(moved.stage()).isEqualTo("container_started");
    assertThat(moved.at()).isEqualTo(T0.plusMillis(500));
    assertThat(moved.bounded()).isTrue();
    assertThat(moved.source()).isEqualTo("source of container_started");
    assertThat(moved.note())
        .isEqualTo(
            "reconstructed as framework_init minus 2.929; moved to instance_logging's time:"
                + " observed 274 ms earlier");
    assertThat(notes)
        .containsExactly(
            "container_started was observed 274 ms before instance_logging; it is placed at"
                + " instance_logging (bounded)");
    assertThat(out.get(3)).isEqualTo(t.get("framework_init"));
  }

  @Test
  void monotone_movedStageWithoutANote_getsOnlyTheMove() {
    Map<String, TimelineEntry> t =
        timeline(
            entry("desired_set", 1_000, false, null), entry("instance_logging", 400, false, null));

    TimelineEntry moved = ScaleOutObserver.monotone(t, new ArrayList<>()).get(1);

    assertThat(moved.note()).isEqualTo("moved to desired_set's time: observed 600 ms earlier");
    assertThat(moved.bounded()).isTrue();
  }

  @Test
  void monotone_twoStagesBeforeAMovedOne_areBothHeldAtItsTime() {
    Map<String, TimelineEntry> t =
        timeline(
            entry("desired_set", 0, false, null),
            entry("instance_logging", 900, true, null),
            entry("framework_init", 100, false, null),
            entry("weights_ready", 300, false, null),
            entry("warmup_done", 1_200, false, null));
    List<String> notes = new ArrayList<>();

    List<TimelineEntry> out = ScaleOutObserver.monotone(t, notes);

    assertThat(out)
        .extracting(TimelineEntry::at)
        .containsExactly(
            T0, T0.plusMillis(900), T0.plusMillis(900), T0.plusMillis(900), T0.plusMillis(1_200));
    assertThat(notes)
        .containsExactly(
            "framework_init was observed 800 ms before instance_logging; it is placed at"
                + " instance_logging (bounded)",
            "weights_ready was observed 600 ms before framework_init; it is placed at"
                + " framework_init (bounded)");
  }

  @Test
  void monotone_stageAtTheSameInstantAsItsPredecessor_isNotMoved() {
    TimelineEntry ready = entry("ready", 7_000, false, null);
    Map<String, TimelineEntry> t = timeline(entry("warmup_done", 7_000, false, null), ready);
    List<String> notes = new ArrayList<>();

    assertThat(ScaleOutObserver.monotone(t, notes)).endsWith(ready);
    assertThat(notes).isEmpty();
  }

  @Test
  void monotone_stagesOutsideTheScaleOut_areLeftOut() {
    Map<String, TimelineEntry> t =
        timeline(
            entry("load_applied", -5_000, false, null),
            entry("desired_set", 0, false, null),
            entry("traffic_recovered", 8_500, true, null));

    assertThat(ScaleOutObserver.monotone(t, new ArrayList<>()))
        .extracting(TimelineEntry::stage)
        .containsExactly("desired_set", "traffic_recovered");
  }

  @Test
  void monotone_outOfOrderTimeline_givesDurationsThatAreNonNegativeAndSumToTheTotal() {
    Map<String, TimelineEntry> t =
        timeline(
            entry("desired_set", 0, false, null),
            entry("instance_logging", 1_274, true, null),
            entry("container_started", 733, true, null),
            entry("framework_init", 3_662, false, null),
            entry("weights_ready", 4_594, false, null),
            entry("warmup_done", 8_331, false, null),
            entry("ready", 8_331, false, null),
            entry("in_service", 8_449, true, null),
            entry("traffic_recovered", 8_995, true, null));

    TtotalArtifact a = artifact(ScaleOutObserver.monotone(t, new ArrayList<>())).withDerived();

    assertThat(a.durations()).allSatisfy(d -> assertThat(d.seconds()).isNotNegative());
    assertThat(a.durations().stream().mapToLong(d -> Math.round(d.seconds() * 1000)).sum())
        .isEqualTo(8_995);
    assertThat(a.tTotalS()).isEqualTo(8.995);
  }

  @Test
  void withDerived_runReachingTrafficRecovered_isNotBounded() {
    Map<String, TimelineEntry> t =
        timeline(
            entry("desired_set", 0, false, null),
            entry("in_service", 8_449, true, null),
            entry("traffic_recovered", 8_995, true, null));

    TtotalArtifact a = artifact(ScaleOutObserver.monotone(t, new ArrayList<>())).withDerived();

    assertThat(a.tTotalBounded()).isFalse();
  }

  @Test
  void withDerived_timelineWithoutTrafficRecovered_isBounded() {
    Map<String, TimelineEntry> t =
        timeline(entry("desired_set", 0, false, null), entry("in_service", 8_449, true, null));

    TtotalArtifact a = artifact(ScaleOutObserver.monotone(t, new ArrayList<>())).withDerived();

    assertThat(a.tTotalBounded()).isTrue();
  }

  @Test
  void recordedQuickstart_fileSaysBoundedButTrafficRecovered_isReadAsNotBounded() {
    assertThat(Recorded.quickstartTtotal().tTotalBounded()).isFalse();
  }

  static TtotalArtifact artifact(List<TimelineEntry> timeline) {
    return new TtotalArtifact(
        new Header(Artifact.SCHEMA_VERSION, "ttotal", "test", T0, null),
        "m",
        "speech-m",
        "force-desired",
        null,
        0,
        60,
        null,
        null,
        timeline,
        null,
        null,
        null,
        null,
        null,
        null);
  }

  // ---- recovery ----

  /** A completion {@code atMs} after {@link #T0}. */
  static ScaleOutObserver.Sample ok(long atMs, double ttfabMs) {
    return new ScaleOutObserver.Sample(T0.plusMillis(atMs), ttfabMs, true);
  }

  static ScaleOutObserver.Sample failed(long atMs) {
    return new ScaleOutObserver.Sample(T0.plusMillis(atMs), -1, false);
  }

  /** One ok completion a second from {@code fromMs}, all at {@code ttfabMs}. */
  static List<ScaleOutObserver.Sample> everySecond(long fromMs, int count, double ttfabMs) {
    List<ScaleOutObserver.Sample> s = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      s.add(ok(fromMs + 1_000L * i, ttfabMs));
    }
    return s;
  }

  static Optional<Instant> recovery(List<ScaleOutObserver.Sample> samples, long nowMs) {
    return ScaleOutObserver.recovery(samples, T0, WINDOW, TARGET_MS, T0.plusMillis(nowMs));
  }

  @Test
  void recovery_fullWindowWithinTarget_isItsFirstCompletion() {
    assertThat(recovery(everySecond(200, 30, 300), 40_000)).contains(T0.plusMillis(200));
  }

  @Test
  void recovery_completionExactlyAtInService_countsAsAfterIt() {
    assertThat(recovery(everySecond(0, 30, 300), 40_000)).contains(T0);
  }

  @Test
  void recovery_completionsBeforeInService_areIgnored() {
    List<ScaleOutObserver.Sample> s = new ArrayList<>(everySecond(-20_000, 20, 300));
    s.addAll(everySecond(1_000, 20, 300));

    assertThat(recovery(s, 40_000)).contains(T0.plusMillis(1_000));
  }

  @Test
  void recovery_windowNotYetOver_isEmptyEvenIfEverySampleIsFast() {
    assertThat(recovery(everySecond(0, 9, 300), 9_999)).isEmpty();
  }

  @Test
  void recovery_windowEndingExactlyNow_isComplete() {
    assertThat(recovery(everySecond(0, 10, 300), 10_000)).contains(T0);
  }

  @Test
  void recovery_fewerThanFiveCompletionsInTheWindow_isNotRecovered() {
    List<ScaleOutObserver.Sample> s =
        List.of(ok(0, 100), ok(2_500, 100), ok(5_000, 100), ok(7_500, 100));

    assertThat(recovery(s, 60_000)).isEmpty();
  }

  @Test
  void recovery_fiveCompletionsInTheWindow_isEnough() {
    List<ScaleOutObserver.Sample> s =
        List.of(ok(0, 100), ok(2_000, 100), ok(4_000, 100), ok(6_000, 100), ok(8_000, 100));

    assertThat(recovery(s, 60_000)).contains(T0);
  }

  @Test
  void recovery_windowIsHalfOpen_aCompletionAtItsEndBelongsToTheNext() {
    // four inside [0, 10 s), the fifth at exactly 10 s: not enough for the window from 0
    List<ScaleOutObserver.Sample> s =
        List.of(ok(0, 100), ok(2_500, 100), ok(5_000, 100), ok(7_500, 100), ok(10_000, 100));

    assertThat(recovery(s, 60_000)).isEmpty();
  }

  @Test
  void recovery_slowStart_recoversAtTheFirstCompletionWhoseWindowIsWithinTarget() {
    List<ScaleOutObserver.Sample> s = new ArrayList<>(everySecond(0, 5, 900));
    s.addAll(everySecond(5_000, 30, 300));

    assertThat(recovery(s, 60_000)).contains(T0.plusMillis(5_000));
  }

  @Test
  void recovery_p95ExactlyAtTheTarget_counts() {
    assertThat(recovery(everySecond(0, 20, TARGET_MS), 60_000)).contains(T0);
  }

  @Test
  void recovery_p95JustAboveTheTarget_doesNotCount() {
    assertThat(recovery(everySecond(0, 20, TARGET_MS + 0.001), 60_000)).isEmpty();
  }

  @Test
  void recovery_failedCompletionInTheWindow_holdsRecoveryUntilAWindowWithoutIt() {
    List<ScaleOutObserver.Sample> s = new ArrayList<>(everySecond(0, 3, 100));
    s.add(failed(3_000));
    s.addAll(everySecond(4_000, 30, 100));

    assertThat(recovery(s, 60_000)).contains(T0.plusMillis(4_000));
  }

  // ---- probe ----

  @Test
  void probe_recordedQuickstart_isTheLargestEvenRungUpToQmaxWhoseHalfIsARung() {
    // Q_max 10: 10's half (5) is not a rung, 8's (4) is; 16 and 32 are above Q_max
    assertThat(TtotalPreflight.probe(Recorded.quickstartQmax(), null, "q.json")).isEqualTo(8);
  }

  @Test
  void probe_kokoroLadder_isForty() {
    // Q_max 50: 50's half (25) is not a rung, 40's (20) is
    assertThat(TtotalPreflight.probe(Recorded.kokoroQmax(), null, "q.json")).isEqualTo(40);
  }

  @Test
  void probe_requestedWithBothRungs_isTakenAsGiven() {
    assertThat(TtotalPreflight.probe(Recorded.quickstartQmax(), 4, "q.json")).isEqualTo(4);
  }

  @Test
  void probe_requestedAboveQmax_isTakenWhenBothRungsAreUsable() {
    assertThat(TtotalPreflight.probe(Recorded.quickstartQmax(), 16, "q.json")).isEqualTo(16);
  }

  @Test
  void probe_requestedWithoutItsHalf_isRefusedNamingTheRungs() {
    assertThatThrownBy(() -> TtotalPreflight.probe(Recorded.quickstartQmax(), 10, "q.json"))
        .isInstanceOf(ChainException.class)
        .hasMessage(
            "missing recovery rungs: --probe-concurrency 10 needs usable rungs at 10 and 5 in q.json"
                + " (usable rungs: [1, 2, 4, 8, 10, 11, 12, 16, 32]); pick another N or re-run qmax"
                + " with both rungs");
  }

  @Test
  void probe_requestedOdd_isRefused() {
    assertThatThrownBy(() -> TtotalPreflight.probe(Recorded.quickstartQmax(), 11, "q.json"))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("--probe-concurrency 11 needs usable rungs at 11 and 5");
  }

  @Test
  void probe_requestedBelowTwo_isRefused() {
    // a rung at 0 (and so at its half) exists: only the N >= 2 rule refuses it
    QmaxArtifact q = ladder(4, step(0, 50.0), step(1, 60.0), step(2, 100.0));

    assertThatThrownBy(() -> TtotalPreflight.probe(q, 0, "q.json"))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("--probe-concurrency 0 needs usable rungs at 0 and 0");
  }

  @Test
  void probe_unusableRung_isNotAProbeCandidate() {
    QmaxArtifact q =
        ladder(8, step(1, 60.0), step(2, 120.0), step(0, 4, 240.0, "not settled"), step(8, 480.0));

    assertThat(TtotalPreflight.probe(q, null, "q.json")).isEqualTo(2);
  }

  /** A rung held to the max hold without its windows agreeing, as qmax records one. */
  static dev.speechscale.artifacts.QmaxStep unsettled(int n, double p95Ms) {
    return step(0, n, p95Ms, "unstable: held to the max hold (28 s), 5 windows, and no 3 agreed")
        .withStability(
            new dev.speechscale.artifacts.RungStability(3, 10, 28, false, 3.9, 16.7, List.of()));
  }

  @Test
  void probe_noSettledPairButUnsettledHalves_takesThePairAndTheUnsettledP95() {
    // the quiet-machine quickstart of 2026-12-02 09:15: N=1 and N=4 unsettled, Q_max 13; it
    // stopped here with "missing recovery rungs" before
    QmaxArtifact q =
        ladder(
            13,
            unsettled(1, 52.4),
            step(2, 136.1),
            unsettled(4, 344.6),
            step(8, 592.1),
            step(12, 880.8),
            step(13, 942.7),
            step(14, 1012.4),
            step(16, 1185.4));

    assertThat(TtotalPreflight.probe(q, null, "q.json")).isEqualTo(8);
    assertThat(TtotalPreflight.p95At(q, 4)).isEqualTo(344.6);
    assertThat(TtotalPreflight.unsettledOnly(q, 8, 4)).containsExactly(4);
  }

  @Test
  void probe_aSettledPair_isPreferredToALargerUnsettledOne() {
    QmaxArtifact q = ladder(8, step(1, 60.0), step(2, 120.0), unsettled(4, 240.0), step(8, 480.0));

    assertThat(TtotalPreflight.probe(q, null, "q.json")).isEqualTo(2);
    assertThat(TtotalPreflight.unsettledOnly(q, 2, 1)).isEmpty();
  }

  @Test
  void probe_unsettledRungsOnlyOnOneSide_isRefusedNamingThem() {
    QmaxArtifact q = ladder(10, unsettled(1, 60.0), step(4, 240.0), step(10, 600.0));

    assertThatThrownBy(() -> TtotalPreflight.probe(q, null, "q.json"))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("(usable rungs: [4, 10], unsettled: [1])");
  }

  @Test
  void probe_notSettledRungBetweenUsableOnes_takesThePairAndWarns() {
    // CI of 2026-12-02 22:40 (PhysicsEndToEndTest, one stability window): rung 2 drifted on a
    // loaded machine, usable rungs [1, 4], and ttotal refused with "missing recovery rungs"
    QmaxArtifact q =
        ladder(
            4,
            step(1, 60.0),
            step(0, 2, 130.0, "not settled: TTFAB drifted 40.0 ms across the window"),
            step(4, 240.0));

    assertThat(TtotalPreflight.probe(q, null, "q.json")).isEqualTo(4);
    assertThat(TtotalPreflight.p95At(q, 2)).isEqualTo(130.0);
    assertThat(TtotalPreflight.unsettledOnly(q, 4, 2)).containsExactly(2);
  }

  @Test
  void probe_refusal_namesWhatDisqualifiedTheOtherRungs() {
    QmaxArtifact q =
        ladder(
            4,
            step(1, 60.0),
            step(0, 2, 130.0, "client-bound: mean in-flight 1.80 is 10.0% short of N=2"),
            step(4, 240.0));

    assertThatThrownBy(() -> TtotalPreflight.probe(q, null, "q.json"))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("(usable rungs: [1, 4]); rung 2 was client-bound: mean in-flight");
  }

  @Test
  void probe_rungWithoutP95_isNotAProbeCandidate() {
    QmaxArtifact q = ladder(8, step(1, 60.0), step(2, 120.0), step(0, 4, null, null));

    assertThatThrownBy(() -> TtotalPreflight.probe(q, 4, "q.json"))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("(usable rungs: [1, 2])");
  }

  @Test
  void probe_noEvenRungWithItsHalf_isRefusedWithTheFix() {
    QmaxArtifact q = ladder(10, step(1, 60.0), step(4, 240.0), step(10, 600.0));

    assertThatThrownBy(() -> TtotalPreflight.probe(q, null, "q.json"))
        .isInstanceOf(ChainException.class)
        .hasMessage(
            "missing recovery rungs: q.json has no usable even rung N <= Q_max (10) whose half is"
                + " also a usable rung (usable rungs: [1, 4, 10]); re-run qmax with rungs like 2,"
                + " 4, 8");
  }

  @Test
  void probe_lowRungsUnsettled_refusalSaysTheMachineWasBusyNotWhichRungsToRun() {
    // quickstart of 2026-12-07 12:23 at load 8-12: rungs 1-8 measured but never settled, 16 and 32
    // breached, Q_max 0; the refusal advised "re-run qmax with rungs like 2, 4, 8" - rungs it had
    // run
    QmaxArtifact q =
        ladder(0, unsettled(1, 80.7), unsettled(2, 149.2), step(16, 1327.7), step(32, 2061.5));

    assertThatThrownBy(() -> TtotalPreflight.probe(q, null, "q.json"))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("unsettled: [1, 2]")
        .hasMessageEndingWith(
            "; rungs [1, 2] were measured but their windows never agreed, as on a busy machine:"
                + " re-run qmax on a quiet one, or with --stability-windows 1 to take each rung's"
                + " last window as it is");
  }

  @Test
  void probe_noQmax_isRefusedAsQmaxZero() {
    QmaxArtifact q = ladder(null, step(1, 60.0), step(2, 120.0));

    assertThatThrownBy(() -> TtotalPreflight.probe(q, null, "q.json"))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("N <= Q_max (0)");
  }

  // ---- p95At ----

  @Test
  void p95At_recordedQuickstart_isTheRungsP95() {
    assertThat(TtotalPreflight.p95At(Recorded.quickstartQmax(), 4)).isEqualTo(416.957796);
  }

  @Test
  void p95At_twoRuns_isTheWorse() {
    QmaxArtifact q = ladder(4, step(0, 4, 410.0, null), step(1, 4, 455.5, null), step(2, 200.0));

    assertThat(TtotalPreflight.p95At(q, 4)).isEqualTo(455.5);
  }

  @Test
  void p95At_unusableRunOfTheRung_isIgnored() {
    QmaxArtifact q =
        ladder(4, step(0, 4, 410.0, null), step(1, 4, 2_000.0, "client-bound: mean 3.1 of 4"));

    assertThat(TtotalPreflight.p95At(q, 4)).isEqualTo(410.0);
  }

  @Test
  void p95At_noUsableRung_isAChainException() {
    QmaxArtifact q = ladder(4, step(2, 200.0), step(0, 3, 300.0, "saturated"));

    assertThatThrownBy(() -> TtotalPreflight.p95At(q, 3))
        .isInstanceOf(ChainException.class)
        .hasMessage("the ladder has no usable rung at 3");
  }

  // ---- the new instance against the old one ----

  private static ScaleOutObserver.Sample named(long sentMs, String instance, double serviceMs) {
    return new ScaleOutObserver.Sample(
        T0.plusMillis(sentMs + Math.round(serviceMs)),
        10,
        true,
        T0.plusMillis(sentMs),
        instance,
        serviceMs);
  }

  @Test
  void newInstance_samplesNamingTheirInstance_givesWindowsSinceInServiceBySendTime() {
    Instant desiredSet = T0.plusSeconds(10);
    Instant inService = T0.plusSeconds(13);
    List<ScaleOutObserver.Sample> samples = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      samples.add(named(i * 500, "i-local-1", 60)); // before desired_set: the old instance
    }
    samples.add(named(12_000, "i-local-1", 500)); // after the trigger, before in service
    for (int i = 0; i < 30; i++) {
      // 13.0-28.0 s: the new one at 90 ms, the old at 60; sent 15 s after in service = window 1
      samples.add(named(13_000 + i * 500, "i-local-2", i < 30 ? 90 : 60));
      samples.add(named(13_000 + i * 500, "i-local-1", 60));
    }
    samples.add(new ScaleOutObserver.Sample(T0.plusSeconds(29), 10, true)); // names none
    samples.add(named(29_000, "i-local-2", -1)); // a failure: no service time

    NewInstanceService n = ScaleOutObserver.newInstance(samples, desiredSet, inService);

    assertThat(n).isNotNull();
    assertThat(n.oldInstances()).containsExactly("i-local-1");
    assertThat(n.newInstance()).isEqualTo("i-local-2");
    // the last completion is 16.09 s after in service: one full window
    assertThat(n.windows()).hasSize(1);
    assertThat(n.windows().getFirst().newRequests()).isEqualTo(30);
    assertThat(n.windows().getFirst().oldRequests()).isEqualTo(30);
    assertThat(n.windows().getFirst().factor()).isEqualTo(1.5);
  }

  @Test
  void newInstance_noSampleNamesItsInstanceOrNoStage_isNull() {
    List<ScaleOutObserver.Sample> unnamed =
        List.of(
            new ScaleOutObserver.Sample(T0, 10, true),
            new ScaleOutObserver.Sample(T0.plusSeconds(30), 10, true));

    assertThat(ScaleOutObserver.newInstance(unnamed, T0, T0.plusSeconds(1))).isNull();
    assertThat(ScaleOutObserver.newInstance(List.of(named(0, "a", 60)), null, T0)).isNull();
    assertThat(ScaleOutObserver.newInstance(List.of(named(0, "a", 60)), T0, null)).isNull();
  }
}
