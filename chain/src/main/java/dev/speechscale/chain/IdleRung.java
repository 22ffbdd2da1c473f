package dev.speechscale.chain;

import dev.speechscale.artifacts.IdleStartRung;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.loadgen.OpenLoopDriver;
import dev.speechscale.loadgen.OpenLoopResult;
import dev.speechscale.loadgen.OpenLoopSpec;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * qmax's last rung: open-loop Poisson arrivals at {@value #LOAD_SHARE} of the ladder's highest
 * throughput for about {@value #TARGET_REQUESTS} requests (1.5 to 4 measurement windows), on the
 * same frozen instance, so that about half the requests find it idle and half queue behind the one
 * in service ({@link IdleStartRung}). Every closed-loop rung keeps the instance busy back to back,
 * so the ladder alone cannot say how an instance below saturation serves
 * (measurements/simulator-calibration.md, "Idle starts").
 */
final class IdleRung {
  /** The offered rate's share of the ladder's highest throughput. */
  static final double LOAD_SHARE = 0.45;

  private IdleRung() {}

  /** Requests the rung aims at: about half find the instance idle, enough of each for a factor. */
  static final int TARGET_REQUESTS = 5 * IdleStartRung.MIN_REQUESTS;

  /**
   * How long the rung runs after a ladder whose best throughput was {@code peakRps}: long enough
   * for {@value #TARGET_REQUESTS} requests at its rate, at least one and a half measurement windows
   * and at most four.
   */
  static Duration length(Duration window, double peakRps) {
    long least = window.toMillis() * 3 / 2;
    long most = window.toMillis() * 4;
    double rate = LOAD_SHARE * peakRps;
    long wanted = rate > 0 ? (long) Math.ceil(TARGET_REQUESTS / rate * 1000) : least;
    return Duration.ofMillis(Math.max(least, Math.min(most, wanted)));
  }

  /**
   * Runs the rung, or returns {@code null} (and says why) when the ladder has no usable rung with a
   * throughput or a response did not say its queue wait.
   */
  static @Nullable IdleStartRung run(
      Invoker invoker,
      TextPool texts,
      NanoClock nanos,
      RequestListener events,
      List<QmaxStep> steps,
      Duration window,
      long seed,
      Consumer<String> notes) {
    double peak =
        steps.stream()
            .filter(s -> s.isUsable() && s.achievedRps() != null)
            .mapToDouble(s -> s.achievedRps())
            .max()
            .orElse(0);
    if (!(peak > 0)) {
      notes.accept("idle-start rung: skipped, the ladder has no usable rung with a throughput");
      return null;
    }
    double rate = LOAD_SHARE * peak;
    Duration length = length(window, peak);
    notes.accept(
        String.format(
            Locale.ROOT,
            "idle-start rung: open-loop Poisson at %.2f req/s (%.2f x the ladder's best %.2f req/s)"
                + " for %.0f s",
            rate,
            LOAD_SHARE,
            peak,
            length.toMillis() / 1000.0));
    OpenLoopResult r;
    try (OpenLoopDriver driver = new OpenLoopDriver(invoker, texts, nanos, events)) {
      Thread stopper = new Thread(driver::stop, "stop-idle-rung");
      Runtime.getRuntime().addShutdownHook(stopper);
      try {
        r =
            driver.run(
                OpenLoopSpec.constant(rate, length, OpenLoopSpec.Arrivals.POISSON, 64, seed));
      } finally {
        QmaxRun.removeHook(stopper);
      }
    }
    List<RequestEvent> ok =
        r.events().stream().filter(e -> e.ok() && e.firstAudioNanos() >= 0).toList();
    if (ok.stream().anyMatch(e -> !e.breakdown().hasQueueWait())) {
      notes.accept(
          "idle-start rung: not recorded, a response did not say its queue wait"
              + " (X-Queue-Wait-Us), so idle and queued requests cannot be told apart");
      return null;
    }
    IdleStartRung rung =
        IdleStartRung.of(
            rate,
            LOAD_SHARE,
            length.toMillis() / 1000.0,
            ok.stream()
                .map(e ->
                    new IdleStartRung.Served(
                        e.breakdown().queueWaitUs() / 1000.0,
                        (e.completedNanos() - e.sentNanos()) / 1e6,
                        (e.firstAudioNanos() - e.sentNanos()) / 1e6))
                .toList());
    notes.accept("idle-start rung: " + rung.summary());
    return rung;
  }
}
