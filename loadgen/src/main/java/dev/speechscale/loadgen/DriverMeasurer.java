package dev.speechscale.loadgen;

import dev.speechscale.artifacts.RungStability;
import dev.speechscale.platform.Invoker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import org.jspecify.annotations.Nullable;

/**
 * Measures rungs with a {@link ClosedLoopDriver}: holds the rung (until its windows agree, when the
 * spec's {@link StabilityRule} asks for more than one), watches the instance count, computes the
 * measured window, joins the server's concurrency and judges the result.
 */
final class DriverMeasurer implements RungMeasurer {
  private final ClosedLoopDriver driver;
  private final Invoker invoker;
  private final TextPool texts;
  private final LadderHooks hooks;
  private final LongFunction<Instant> wallOf;
  private volatile @Nullable ClosedLoopDriver warmup;
  private volatile boolean stopped;

  DriverMeasurer(Invoker invoker, TextPool texts, LadderHooks hooks) {
    this.driver = new ClosedLoopDriver(invoker, texts, hooks.clock(), hooks.requests());
    this.invoker = invoker;
    this.texts = texts;
    this.hooks = hooks;
    this.wallOf = hooks.clock().anchor(hooks.wallClock());
  }

  /**
   * Runs its own driver with its own connections and only the hooks' warm-up listener, so nothing
   * of the warm-up reaches the event log or any rung; its connections close when it ends.
   */
  @Override
  public boolean warmUp(int concurrency, Duration hold) {
    try (ClosedLoopDriver w =
        new ClosedLoopDriver(invoker, texts, hooks.clock(), hooks.warmupRequests())) {
      warmup = w;
      if (stopped) {
        return false;
      }
      try {
        w.run(-1, -1, concurrency, hold);
      } catch (LoadgenException e) {
        if (w.stopped()) {
          return false; // stopped between the check above and the start
        }
        throw e;
      }
      return !w.stopped();
    } finally {
      warmup = null;
    }
  }

  @Override
  public @Nullable RungReport measure(
      LadderSpec spec, int runIndex, int stepIndex, int concurrency, RungReport.Phase phase) {
    CapacityWatch watch = new CapacityWatch(spec.capacityPoll());
    RungRecording rec;
    try {
      rec =
          spec.stability().extendsHold()
              ? driver.run(
                  runIndex,
                  stepIndex,
                  concurrency,
                  spec.maximumHold(),
                  untilStable(spec, concurrency))
              : driver.run(runIndex, stepIndex, concurrency, spec.hold());
    } finally {
      watch.finish();
    }
    if (driver.stopped()) {
      return null;
    }
    long windowStart;
    long windowEnd;
    WindowStats stats;
    @Nullable RungStability stability = null;
    if (spec.stability().extendsHold()) {
      // the rung's figures are those of its counted windows (RungWindows says which)
      RungWindows windows =
          RungWindows.of(rec.events(), concurrency, rec.startNanos(), rec.holdEndNanos(), spec);
      windowStart = windows.countedStartNanos();
      windowEnd = windows.countedEndNanos();
      stats = windows.counted(rec.events(), concurrency);
      stability = windows.toArtifact(rec.startNanos(), spec.stability());
    } else {
      // one window: the hold's trailing window, as before the stability rule
      windowEnd = rec.holdEndNanos();
      windowStart = windowEnd - spec.window().toNanos();
      stats = WindowStats.compute(rec.events(), concurrency, windowStart, windowEnd);
    }
    int overlaps = WindowStats.workerOverlaps(rec.events());
    Instant start = wallOf.apply(windowStart);
    Instant end = wallOf.apply(windowEnd);
    LadderHooks.@Nullable ServerConcurrency server = null;
    LadderHooks.ServerConcurrencySource source = hooks.serverConcurrency();
    if (source != null) {
      try {
        server = source.over(start, end).orElse(null);
      } catch (RuntimeException e) {
        hooks
            .listener()
            .note(
                "server concurrency for rung N="
                    + concurrency
                    + " could not be read ("
                    + e.getMessage()
                    + "); the step carries none");
      }
    }
    List<Integer> counts = watch.counts();
    return new RungReport(
        runIndex,
        stepIndex,
        phase,
        concurrency,
        start,
        end,
        stats,
        overlaps,
        counts,
        server,
        RungVerdict.judge(stats, overlaps, counts, stability),
        Duration.ofNanos(rec.endNanos() - rec.startNanos()),
        stability);
  }

  /** Ends a rung's hold at the first checkpoint where its windows agree. */
  private static ClosedLoopDriver.HoldCheck untilStable(LadderSpec spec, int concurrency) {
    return new ClosedLoopDriver.HoldCheck() {
      @Override
      public Duration first() {
        return spec.minimumHold();
      }

      @Override
      public Duration every() {
        return spec.window();
      }

      @Override
      public boolean enough(long startNanos, long checkpointNanos, List<RequestEvent> endedBefore) {
        return RungWindows.settledBy(endedBefore, concurrency, startNanos, checkpointNanos, spec);
      }
    };
  }

  @Override
  public void stop() {
    stopped = true;
    ClosedLoopDriver w = warmup;
    if (w != null) {
      w.stop();
    }
    driver.stop();
  }

  @Override
  public void close() {
    driver.close();
  }

  /** Samples the instance count at the start, every poll interval, and at the end of a rung. */
  private final class CapacityWatch {
    private final List<Integer> seen = new ArrayList<>();
    // both null when the hooks watch no instance count
    private final LadderHooks.@Nullable CapacityProbe probe;
    private final @Nullable Thread poller;

    CapacityWatch(Duration poll) {
      LadderHooks.CapacityProbe probe = hooks.capacity();
      this.probe = probe;
      if (probe == null) {
        poller = null;
        return;
      }
      sample(probe);
      poller =
          Thread.ofVirtual()
              .name("loadgen-capacity")
              .start(() -> {
                try {
                  while (true) {
                    Thread.sleep(poll);
                    sample(probe);
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt(); // the rung ended
                }
              });
    }

    private void sample(LadderHooks.CapacityProbe probe) {
      int n;
      try {
        n = probe.instanceCount();
      } catch (RuntimeException e) {
        hooks.listener().note("instance count could not be read: " + e.getMessage());
        return;
      }
      synchronized (seen) {
        if (seen.isEmpty() || seen.get(seen.size() - 1) != n) {
          seen.add(n);
        }
      }
    }

    void finish() {
      Thread poller = this.poller;
      LadderHooks.CapacityProbe probe = this.probe;
      if (poller == null || probe == null) {
        return;
      }
      poller.interrupt();
      try {
        poller.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      sample(probe);
    }

    List<Integer> counts() {
      synchronized (seen) {
        return List.copyOf(seen);
      }
    }
  }
}
