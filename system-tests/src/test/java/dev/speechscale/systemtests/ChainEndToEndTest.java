package dev.speechscale.systemtests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.NewInstanceService;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.artifacts.ValidateTimeline;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole chain on the local platform through the real CLI, with tiny durations: deploy → drift →
 * qmax → ttotal → plan → deploy behind the plan → validate (static and live) → destroy. It proves
 * the pipeline and the artifacts, not numbers.
 */
class ChainEndToEndTest {
  @TempDir Path dir;

  @Test
  void chain_onALocalEndpoint_producesValidArtifactsAndAValidatedPolicy() throws Exception {
    try (LocalEndpoint endpoint = LocalEndpoint.configured(dir, "e2e", "")) {
      endpoint.deploy();

      Cli drift = endpoint.ttsBench("drift");
      assertThat(drift.exitCode()).as(drift.out()).isZero();
      assertThat(drift.out()).contains("preflight ok");

      endpoint.qmax(
          "--rungs",
          "1,2,4",
          // long enough for a cold instance JVM to compile its hot path even on a busy
          // machine; with 300 ms the first rungs drifted ("not settled") under load
          "--warmup",
          "3s",
          // a 4 s window (four of the local metric store's 1 s samples, so a late sample
          // never leaves it without the server's concurrency, and enough requests per
          // third that the settle check does not trip on a busy machine's noise)
          "--hold",
          "5s",
          "--window",
          "4s",
          // one window per rung: this test pins the chain, not the stability windows (their
          // loopback and fake-time tests are in loadgen and chain)
          "--stability-windows",
          "1",
          "--events",
          dir.resolve("events.jsonl").toString());
      Path qmax = endpoint.qmaxFile();
      assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, Files.readString(qmax))).isEmpty();
      QmaxArtifact qa = ArtifactCodec.readQmax(qmax);
      // every rung meets the 8 s SLO, so Q_max is the highest usable rung; which rungs are usable
      // depends on the machine's load (the settle check), so the test pins the rule, not the value
      assertThat(qa.qMax())
          .isEqualTo(
              qa.steps().stream()
                  .filter(QmaxStep::isUsable)
                  .mapToInt(QmaxStep::concurrency)
                  .max()
                  .orElseThrow());
      assertThat(qa.steps()).allSatisfy(s -> assertThat(s.serverConcurrencyPeak()).isNotNull());
      assertThat(Files.readAllLines(dir.resolve("events.jsonl"))).isNotEmpty();

      Path ttotal = endpoint.ttotal(qmax, "--timeout", "2m", "--new-instance-for", "16s");
      assertThat(ArtifactCodec.validate(ArtifactKind.TTOTAL, Files.readString(ttotal))).isEmpty();
      TtotalArtifact ta = ArtifactCodec.readTtotal(ttotal);
      assertThat(ta.missingStages()).isEmpty();
      // the probe ran 16 s past in service and every response named its instance: the first
      // 15 s window has both instances' service times
      NewInstanceService fresh = ta.newInstance();
      assertThat(fresh).isNotNull();
      assertThat(fresh.oldInstances()).hasSize(1);
      assertThat(fresh.newInstance()).isNotNull().isNotIn(fresh.oldInstances());
      assertThat(fresh.windows()).isNotEmpty();
      assertThat(fresh.windows().getFirst().newRequests()).isPositive();
      assertThat(fresh.windows().getFirst().oldRequests()).isPositive();
      if (Runtime.getRuntime().availableProcessors() >= 2) {
        // local.500mcpu instances are pinned to a core each: the host probe ran across the
        // scale-out and the first window's factor has the new host's speed over the old one's
        // divided out
        NewInstanceService.Window w = fresh.windows().getFirst();
        assertThat(w.hostRatio()).isNotNull().isPositive();
        if (w.factor() != null) {
          assertThat(w.factor() * w.hostRatio())
              .isCloseTo(w.newServiceMs() / w.oldServiceMs(), within(1e-9));
        }
      }
      long sumMs = ta.durations().stream().mapToLong(d -> Math.round(d.seconds() * 1000)).sum();
      assertThat(sumMs).isEqualTo(Math.round(ta.tTotalS() * 1000));

      Path plan = endpoint.plan(qmax, ttotal, "--peak-streams", "6");
      PlanArtifact pa = ArtifactCodec.readPlan(plan);
      assertThat(pa.hasUnitsConversion()).isTrue();

      Cli redeploy = endpoint.deployBehind(plan);
      assertThat(redeploy.out()).contains("scaling         attached");

      Path validate = dir.resolve("validate.json");
      Cli v =
          Cli.ttsBench(
              LocalEndpoint.concat(
                  LocalEndpoint.concat(new String[] {"validate"}, endpoint.behind(plan)),
                  "--live",
                  "--phase",
                  "1s",
                  "--output",
                  validate.toString()));
      assertThat(ArtifactCodec.validate(ArtifactKind.VALIDATE, Files.readString(validate)))
          .isEmpty();
      ValidateArtifact va = ArtifactCodec.readValidate(validate);
      assertThat(va.checks())
          .extracting(ValidateArtifact.Check::name)
          .contains(
              "scaling_target_value",
              "scale_in_threshold",
              "queue_max_depth",
              "live_rejections",
              "live_slo_at_threshold_load",
              "live_surge",
              "live_scale_out");
      assertThat(va.checks())
          .filteredOn(c -> !c.name().startsWith("live"))
          .allSatisfy(
              c -> assertThat(c.result()).as(c.name()).isEqualTo(ValidateArtifact.Result.OK));
      assertThat(v.exitCode()).isEqualTo(va.verdict().failed() ? 1 : 0);
      assertThat(va.timeline()).as("validate --live records its timeline").isNotNull();
      assertThat(va.timeline().samples()).isNotEmpty();
      assertThat(va.timeline().phases())
          .extracting(ValidateTimeline.Phase::name)
          .containsSubsequence("live_rejections", "live_surge");
    }
  }
}
