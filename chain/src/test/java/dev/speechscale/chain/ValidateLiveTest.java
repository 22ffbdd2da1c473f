package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.loadgen.HttpStreamInvokerProvider;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.RungRecording;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.ResponseBreakdown;
import dev.speechscale.platform.SuspendedState;
import dev.speechscale.platform.Transport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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

  /**
   * 2026-12-07: validate --live against a stale --runtime-url (the router had moved port) had every
   * request refused, reported a refusal cost of "served 0.00 req/s ... nothing refused" and waited
   * out live_scale_out's whole bound (288 s) for load that never arrived. It now stops after the
   * first load phase, naming where the load went, what happened and the fix, and puts back the
   * freeze it applied.
   */
  @Test
  void run_nothingListensAtTheUrl_stopsAfterTheFirstPhaseNamingTheUrlAndRestoresTheFreeze()
      throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    URI url = URI.create("http://127.0.0.1:" + port);
    PlanArtifact plan = Recorded.quickstartPlan();
    FakePlatform platform = FakePlatform.deployedBehind(plan);
    platform.invoker =
        new HttpStreamInvokerProvider()
            .create(
                new InvokerTarget(
                    Transport.HTTP_STREAM,
                    plan.endpoint(),
                    url,
                    "local",
                    Duration.ofSeconds(5),
                    NanoClock.SYSTEM,
                    Map.of()));
    ValidateRun.Options options =
        new ValidateRun.Options(
            plan.model(),
            plan,
            "plan-quickstart.json",
            true,
            new ValidateLoad(
                Transport.HTTP_STREAM, Duration.ofSeconds(1), List.of("a sentence to speak")),
            "validate --live",
            Map.of());

    ChainException e =
        catchThrowableOfType(
            ChainException.class,
            () -> ValidateRun.run(platform, options, NanoClock.SYSTEM, line -> {}));

    assertThat(e).as("validate stops with an error").isNotNull();
    assertThat(e.getMessage())
        .contains("0 of ")
        .contains(" requests of the first load phase")
        .contains("reached " + url + " (endpoint " + plan.endpoint() + ")")
        .containsIgnoringCase("connection refused")
        .contains("check --runtime-url");
    assertThat(platform.suspended).isEqualTo(SuspendedState.NONE);
    assertThat(platform.desiredInstances).isEqualTo(plan.minInstances());
  }

  /** 503 refusals and 424 model errors are the endpoint answering: the load reached it. */
  @Test
  void requireReached_refusedOrModelErrorOnly_passes_transportFailuresOnly_stops() {
    LiveLoad load =
        new LiveLoad(
            FakeTimedEndpoint.of(new AtomicLong(), sent -> 1L),
            NanoClock.SYSTEM,
            TextPool.shuffled(List.of("a sentence to speak"), 7),
            Recorded.quickstartPlan(),
            Duration.ofSeconds(1),
            line -> {},
            RequestListener.NONE);

    assertThatCode(() -> load.requireReached(phaseOf(Invocation.Outcome.REJECTED, 503, null)))
        .doesNotThrowAnyException();
    assertThatCode(
            () -> load.requireReached(phaseOf(Invocation.Outcome.SERVER_ERROR, 424, "ModelError")))
        .doesNotThrowAnyException();
    assertThatThrownBy(() ->
            load.requireReached(
                phaseOf(
                    Invocation.Outcome.TRANSPORT_ERROR,
                    0,
                    "timed out: no complete response within the request timeout (5000 ms)")))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("0 of 3 requests of the first load phase (3 concurrent) reached")
        .hasMessageContaining("timed out: no complete response");
  }

  private static RungRecording phaseOf(Invocation.Outcome outcome, int status, String error) {
    List<RequestEvent> events =
        java.util.stream.LongStream.range(0, 3)
            .mapToObj(i ->
                new RequestEvent(
                    RequestEvent.LoadModel.CLOSED_LOOP,
                    0,
                    0,
                    3,
                    i,
                    (int) i,
                    i,
                    i,
                    -1,
                    i + 1,
                    outcome,
                    status,
                    0,
                    19,
                    error,
                    ResponseBreakdown.UNKNOWN))
            .toList();
    return new RungRecording(0, 0, 3, 0, 10, 10, events);
  }
}
