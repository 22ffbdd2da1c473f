package dev.speechscale.server;

import dev.speechscale.platform.NanoClock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Watches every running engine call (issue 11: some espeak-ng 1.51 builds loop inside the
 * phonemizer on text ending in {@code ..} and never call back). A native call cannot be interrupted
 * or killed from Java, so a call that shows no progress — no segment started, no chunk delivered —
 * for {@code ENGINE_STALL_S} is declared stuck: its request fails at once with {@code engine_stuck}
 * (its owner then releases the permit; the gate does not leak), the instance turns unhealthy for
 * good ({@code /ping} 503, new requests 503 {@code engine_stuck}) so the platform replaces it, and
 * {@link #onStuck} runs once (the server process then drains and exits).
 *
 * <p>Checked once a second by one daemon platform thread; {@link #check} is package-private so a
 * test drives it with a fake ticker instead of waiting.
 */
final class EngineWatchdog implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(EngineWatchdog.class.getName());

  private final NanoClock ticker;
  private final Duration bound;
  private final String engineName;
  private final Set<SynthesisJob> jobs = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService timer;
  private volatile @Nullable String stuck; // null while every call makes progress
  private volatile Consumer<String> onStuck = reason -> {};

  EngineWatchdog(NanoClock ticker, Duration bound, String engineName) {
    this.ticker = ticker;
    this.bound = bound;
    this.engineName = engineName;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().name("engine-watchdog").daemon(true).unstarted(r));
    timer.scheduleWithFixedDelay(this::checkQuietly, 1, 1, TimeUnit.SECONDS);
  }

  /** Runs once, with the reason, when the first call is declared stuck. */
  void onStuck(Consumer<String> action) {
    this.onStuck = action;
  }

  void watch(SynthesisJob job) {
    jobs.add(job);
  }

  void unwatch(SynthesisJob job) {
    jobs.remove(job);
  }

  /** The reason the instance is unhealthy, once a call was declared stuck. */
  Optional<String> stuck() {
    return Optional.ofNullable(stuck);
  }

  /** Declares every call past the bound stuck; returns how many it found. */
  int check() {
    long now = ticker.nanoTime();
    int found = 0;
    for (SynthesisJob job : jobs) {
      long stalled = job.stalledNanos(now);
      if (stalled > bound.toNanos()) {
        String reason =
            String.format(
                Locale.ROOT,
                "the %s engine call produced nothing for %.1f s (ENGINE_STALL_S %.0f s): declared"
                    + " stuck; this instance is unhealthy and will be replaced; retry the request",
                engineName,
                stalled / 1e9,
                bound.toNanos() / 1e9);
        boolean first = stuck == null;
        stuck = reason; // before the job fails: a request that starts next is refused, not queued
        jobs.remove(job);
        job.declareStuck(reason);
        found++;
        if (first) {
          LOG.log(System.Logger.Level.ERROR, reason);
          onStuck.accept(reason);
        }
      }
    }
    return found;
  }

  private void checkQuietly() {
    try {
      check();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "engine watchdog check failed", e);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
