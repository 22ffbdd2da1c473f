package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.platform.NanoClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The load checks of {@code validate --live}, on fake time. */
class ValidateLiveTest {

  /**
   * The quiet quickstart of 2026-12-02 03:50 failed live_slo_at_threshold_load at p95 1235 ms: its
   * timeline shows 1280 ms in the phase's first 5 s (the instance just started for the two-instance
   * fleet, JIT-cold) and 700 ms after. The check now runs the load one phase unmeasured first.
   */
  @Test
  void sloAtScaledFleet_fleetColdForItsFirstPhase_judgesTheWarmFleet() {
    PlanArtifact plan = Recorded.quickstartPlan();
    Duration phase = Duration.ofSeconds(8);
    long coldUntil = phase.toNanos();
    AtomicLong now = new AtomicLong();
    NanoClock nanos = now::get;
    var endpoint =
        FakeTimedEndpoint.of(
            now, sent -> sent < coldUntil ? TimeUnit.MILLISECONDS.toNanos(1500) : 50_000_000L);

    ValidateArtifact.Check check =
        ValidateLive.sloAtScaledFleet(
            new LiveLoad(
                endpoint,
                nanos,
                TextPool.shuffled(List.of("a sentence to speak"), 7),
                plan,
                phase,
                line -> {},
                RequestListener.NONE),
            2,
            plan.endpointConfig().ttfabSloMs());

    assertThat(check.result()).as(check.actual()).isEqualTo(ValidateArtifact.Result.OK);
    assertThat(check.detail()).contains("one unmeasured phase");
  }

  @Test
  void sloAtScaledFleet_fleetSlowThroughout_fails() {
    PlanArtifact plan = Recorded.quickstartPlan();
    AtomicLong now = new AtomicLong();
    var endpoint = FakeTimedEndpoint.of(now, sent -> TimeUnit.MILLISECONDS.toNanos(1500));

    ValidateArtifact.Check check =
        ValidateLive.sloAtScaledFleet(
            new LiveLoad(
                endpoint,
                now::get,
                TextPool.shuffled(List.of("a sentence to speak"), 7),
                plan,
                Duration.ofSeconds(8),
                line -> {},
                RequestListener.NONE),
            2,
            plan.endpointConfig().ttfabSloMs());

    assertThat(check.result()).isEqualTo(ValidateArtifact.Result.FAIL);
    assertThat(check.actual()).startsWith("p95 ").endsWith(" ms, 0 rejected");
  }
}
