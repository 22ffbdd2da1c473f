package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.QmaxDrift;
import dev.speechscale.artifacts.QmaxRecheck;
import dev.speechscale.loadgen.FakeTtsServer.Reply;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.Transport;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The drift check over loopback against a serial fake server whose service time changes during the
 * ladder. Tiny holds prove the pipeline, not numbers: a 600 ms window at N=2 holds about 25
 * requests, so its p95 is nearly its largest sample and one scheduling stall on a busy machine
 * moves it by tens of percent (−29 % between two steady windows here on a quiet one). The
 * tolerances are therefore wide — 50 % throughput, 300 % p95 — and the drifting server slows down
 * eight-fold (about −85 % throughput), far past them.
 */
class LadderDriftLoopbackTest {
  /** Flag only: a server that slows and stays slow would be measured again by a rewarm. */
  private static final DriftRecheck WIDE =
      new DriftRecheck(DriftRecheck.Mode.END, 50, 300).withRewarmBudget(Duration.ZERO);

  private static final LadderSpec LADDER =
      LadderSpec.of(List.of(1, 2), Duration.ofMillis(700), Duration.ofMillis(600), 1, 3000)
          .withDrift(WIDE);

  private static FakeTtsServer serial() throws Exception {
    return new FakeTtsServer(1, Duration.ofMillis(10), Duration.ofMillis(10), n -> Reply.OK);
  }

  /** Slows the server eight-fold when the drift re-check starts: the machine drifted. */
  private static LadderListener slowDownAtTheRecheck(FakeTtsServer server) {
    return new LadderListener() {
      @Override
      public void rungStarted(Progress p) {
        if (p.phase() == RungReport.Phase.RECHECK) {
          server.serviceTimes(Duration.ofMillis(80), Duration.ofMillis(80));
        }
      }
    };
  }

  private static LadderResult run(FakeTtsServer server, LadderListener listener) throws Exception {
    try (Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri())) {
      return new LadderRunner(
              invoker,
              TextPool.shuffled(List.of("a b", "c d e"), 3),
              LadderHooks.defaults().withListener(listener))
          .run(LADDER);
    }
  }

  @Test
  void run_serverSlowsDownDuringTheLadder_artifactCarriesTheDriftFinding() throws Exception {
    try (FakeTtsServer server = serial()) {
      LadderResult result = run(server, slowDownAtTheRecheck(server));

      QmaxDrift drift = result.drift();
      assertThat(drift.drifted()).isTrue();
      QmaxRecheck r = drift.rechecks().getFirst();
      assertThat(r.concurrency()).isEqualTo(2); // Q_max 2 (not bracketed): the reference
      assertThat(r.remeasuredRps()).isLessThan(r.firstRps());
      assertThat(r.throughputChangePct()).isLessThan(-50);
      assertThat(r.beyondTolerance()).isTrue();
      assertThat(drift.finding()).startsWith("drift: N=2 re-measured at the end of run 1");
      assertThat(result.reports()).extracting(RungReport::concurrency).containsExactly(1, 2);
    }
  }

  @Test
  void run_steadyServer_staysClean() throws Exception {
    try (FakeTtsServer server = serial()) {
      LadderResult result = run(server, LadderListener.NONE);

      QmaxDrift drift = result.drift();
      assertThat(drift.rechecks())
          .singleElement()
          .satisfies(r -> {
            assertThat(r.concurrency()).isEqualTo(2);
            assertThat(r.remeasuredOk()).isPositive();
            assertThat(r.remeasuredTtfabHistogram()).isNotNull();
          });
      assertThat(drift.drifted()).isFalse();
      assertThat(drift.finding()).isNull();
    }
  }
}
