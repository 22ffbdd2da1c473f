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
