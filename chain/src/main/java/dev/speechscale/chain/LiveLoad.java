package dev.speechscale.chain;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.loadgen.ClosedLoopDriver;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.RungRecording;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * What every load phase of {@code validate --live} drives and reports to.
 *
 * @param invoker the endpoint
 * @param nanos the monotonic clock the drivers time requests with
 * @param texts the text pool
 * @param plan the plan being validated
 * @param phase how long each load phase runs
 * @param progress progress lines
 * @param timeline told of every request
 */
record LiveLoad(
    Invoker invoker,
    NanoClock nanos,
    TextPool texts,
    PlanArtifact plan,
    Duration phase,
    Consumer<String> progress,
    RequestListener timeline) {

  /** One closed-loop phase of {@code n} concurrent requests. */
  RungRecording closed(int n) {
    try (ClosedLoopDriver driver = new ClosedLoopDriver(invoker, texts, nanos, timeline)) {
      return driver.run(0, 0, n, phase);
    }
  }

  /**
   * Stops validate when none of a phase's requests got any answer from the endpoint (connection
   * refused, reset, or no response within the request timeout): nothing serves where the load goes
   * (a stale {@code --runtime-url} after a redeploy moved the router), so every later phase and
   * check would only wait out its bound to judge no load. A 503 refusal or a 424 model error is the
   * endpoint answering and passes.
   *
   * @throws ChainException naming where the load went, what happened and the fix
   */
  void requireReached(RungRecording r) {
    List<RequestEvent> events = r.events();
    long reached = events.stream().filter(LiveLoad::answered).count();
    if (reached > 0) {
      return;
    }
    String where =
        invoker
            .target()
            .map(u -> u + " (endpoint " + plan.endpoint() + ")")
            .orElse(plan.endpoint());
    String what =
        events.stream()
            .map(RequestEvent::error)
            .filter(java.util.Objects::nonNull)
            .collect(
                java.util.stream.Collectors.groupingBy(
                    e -> e, java.util.stream.Collectors.counting()))
            .entrySet()
            .stream()
            .max(java.util.Map.Entry.comparingByValue())
            .map(java.util.Map.Entry::getKey)
            .orElse("no request completed within the " + phase.toSeconds() + " s phase");
    throw new ChainException(
        "validate --live: 0 of "
            + events.size()
            + " requests of the first load phase ("
            + r.concurrency()
            + " concurrent) reached "
            + where
            + ": "
            + what
            + ". Nothing answers there, so the load checks would judge no load; check"
            + " --runtime-url (a redeploy may have moved the router to another port) and that the"
            + " endpoint is in service.");
  }

  /** Whether the endpoint answered at all: any status, or any outcome but a transport failure. */
  private static boolean answered(RequestEvent e) {
    return e.outcome() != Invocation.Outcome.TRANSPORT_ERROR || e.status() != 0;
  }

  static long rejected(RungRecording r) {
    return r.events().stream().filter(e -> e.outcome() == Invocation.Outcome.REJECTED).count();
  }

  /** The p95 TTFAB of the successful requests; infinite when none succeeded. */
  static double p95(List<RequestEvent> events) {
    double[] t =
        events.stream().filter(RequestEvent::ok).mapToDouble(e -> e.ttfabNanos() / 1e6).toArray();
    return t.length == 0 ? Double.POSITIVE_INFINITY : Percentile.of(t, 95);
  }
}
