package dev.speechscale.loadgen;

import dev.speechscale.platform.NanoClock;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * What a ladder needs from its caller besides the invoker: clocks, and the platform-side
 * observations it cannot make itself.
 *
 * @param clock the monotonic clock requests are timed on (the invoker's)
 * @param wallClock wall time, only to name measurement windows for metric queries and logs
 * @param capacity the endpoint's current instance count, or {@code null} when not watched (a rung
 *     is unusable when it changes during the rung)
 * @param serverConcurrency the server's ConcurrentRequestsPerModel for a window, or {@code null}
 *     (the steps then carry no server concurrency and the planner has no units ratio)
 * @param listener progress and notes, e.g. a {@link ProgressPrinter} on stderr
 * @param requests sees every request, e.g. a {@link JsonlEventLog}
 * @param warmupRequests sees every request of the warm-up before the first rung, which {@code
 *     requests} does not (e.g. to measure how a fresh instance's first requests ramp)
 * @param hostSpeed how much the host slowed between two windows, or {@code null} when nothing
 *     probes it; a drift re-check beyond tolerance asks it whether the machine moved ({@link
 *     DriftRewarm})
 */
public record LadderHooks(
    NanoClock clock,
    Clock wallClock,
    @Nullable CapacityProbe capacity,
    @Nullable ServerConcurrencySource serverConcurrency,
    LadderListener listener,
    RequestListener requests,
    RequestListener warmupRequests,
    @Nullable HostSpeedChange hostSpeed) {

  public LadderHooks {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(wallClock, "wallClock");
    listener = listener == null ? LadderListener.NONE : listener;
    requests = requests == null ? RequestListener.NONE : requests;
    warmupRequests = warmupRequests == null ? RequestListener.NONE : warmupRequests;
  }

  /** System clocks, nothing watched, nobody listening. */
  public static LadderHooks defaults() {
    return new Copy().build();
  }

  public LadderHooks withClocks(NanoClock clock, Clock wallClock) {
    return edit(c -> {
      c.clock = clock;
      c.wallClock = wallClock;
    });
  }

  public LadderHooks withCapacity(@Nullable CapacityProbe capacity) {
    return edit(c -> c.capacity = capacity);
  }

  public LadderHooks withServerConcurrency(@Nullable ServerConcurrencySource serverConcurrency) {
    return edit(c -> c.serverConcurrency = serverConcurrency);
  }

  public LadderHooks withListener(LadderListener listener) {
    return edit(c -> c.listener = listener);
  }

  public LadderHooks withRequests(RequestListener requests) {
    return edit(c -> c.requests = requests);
  }

  public LadderHooks withWarmupRequests(RequestListener warmupRequests) {
    return edit(c -> c.warmupRequests = warmupRequests);
  }

  public LadderHooks withHostSpeed(@Nullable HostSpeedChange hostSpeed) {
    return edit(c -> c.hostSpeed = hostSpeed);
  }

  /**
   * These hooks with what {@code change} sets on a copy of them; the one place every wither goes.
   */
  private LadderHooks edit(Consumer<Copy> change) {
    Copy copy = new Copy();
    copy.clock = clock;
    copy.wallClock = wallClock;
    copy.capacity = capacity;
    copy.serverConcurrency = serverConcurrency;
    copy.listener = listener;
    copy.requests = requests;
    copy.warmupRequests = warmupRequests;
    copy.hostSpeed = hostSpeed;
    change.accept(copy);
    return copy.build();
  }

  /** The hooks' fields, mutable while a wither sets one; starts at {@link #defaults()}'. */
  private static final class Copy {
    NanoClock clock = NanoClock.SYSTEM;
    Clock wallClock = Clock.systemUTC();
    @Nullable CapacityProbe capacity;
    @Nullable ServerConcurrencySource serverConcurrency;
    LadderListener listener = LadderListener.NONE;
    RequestListener requests = RequestListener.NONE;
    RequestListener warmupRequests = RequestListener.NONE;
    @Nullable HostSpeedChange hostSpeed;

    LadderHooks build() {
      return new LadderHooks(
          clock,
          wallClock,
          capacity,
          serverConcurrency,
          listener,
          requests,
          warmupRequests,
          hostSpeed);
    }
  }

  /** How the endpoint's in-service host's speed changed between two windows. */
  @FunctionalInterface
  public interface HostSpeedChange {
    /**
     * The host's mean time per unit of work over {@code [againFrom, againTo)} against over {@code
     * [firstFrom, firstTo)}, in percent (positive: slower), or {@code null} when either window has
     * no sample.
     */
    @Nullable Double changePct(
        Instant firstFrom, Instant firstTo, Instant againFrom, Instant againTo);
  }

  /** The endpoint's instance count, read during a rung. */
  @FunctionalInterface
  public interface CapacityProbe {
    /** The current (in-service) instance count; may throw, which is reported as a note. */
    int instanceCount();
  }

  /** The server's concurrency statistic over a measurement window. */
  @FunctionalInterface
  public interface ServerConcurrencySource {
    /**
     * ConcurrentRequestsPerModel over [start, end): the Maximum (what target tracking reads) and
     * the Average (what the scale-in alarm reads); empty when the platform has no datapoints.
     */
    Optional<ServerConcurrency> over(Instant start, Instant end);
  }

  /**
   * Server-side concurrency over one window, in the deployed metric's units.
   *
   * @param peak the Maximum statistic
   * @param mean the Average statistic
   */
  public record ServerConcurrency(double peak, double mean) {
    public ServerConcurrency {
      if (!(peak >= 0) || !(mean >= 0)) {
        throw new LoadgenException(
            "server concurrency peak (" + peak + ") and mean (" + mean + ") must be >= 0");
      }
    }
  }
}
