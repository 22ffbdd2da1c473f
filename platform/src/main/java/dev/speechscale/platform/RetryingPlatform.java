package dev.speechscale.platform;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The one path every control-plane call of the chain takes: a {@link Platform} that waits for the
 * client-side {@link AdaptiveRate adaptive rate} before each call, retries a {@link
 * PlatformException.Reason.Throttled throttled} call after an exponential {@link Backoff} with full
 * jitter (the AWS SDK's adaptive retry mode), counts every attempt per minute ({@link #calls()}),
 * and gives pollers the platform's interval ({@link #pollInterval}) and a {@link #pause} on the
 * same clock, so a test drives waits and timeouts on fake time.
 *
 * <p>The wrapper is the one owner of retries unless the platform retries throttling itself ({@link
 * Platform#retriesThrottling()}, e.g. the AWS SDK's clients): then a throttled call is counted and
 * slows the adaptive rate, but is not sent again, so attempts never multiply. Its own ceiling is
 * {@link Backoff#maxAttempts()} ({@link Backoff#THROTTLING}: 10).
 *
 * <p>Only throttling is retried: a throttled call was refused before it did anything, so retrying a
 * mutation (suspend, desired count; both set a value, so idempotent) is safe. Every other failure
 * passes through at once, as the SPI promises. Invokers (the data plane) are not wrapped.
 */
public final class RetryingPlatform implements Platform {
  /** Waits; a test's pause advances a fake clock instead. */
  @FunctionalInterface
  public interface Pause {
    void pause(Duration d) throws InterruptedException;
  }

  private final Platform delegate;
  private final Clock clock;
  private final Pause pause;
  private final Backoff backoff;
  private final RandomGenerator random;
  private final AdaptiveRate rate = new AdaptiveRate();
  private final CallCounter calls = new CallCounter();

  /**
   * Wraps {@code delegate}.
   *
   * @param delegate the platform
   * @param clock the time deadlines and the rate limiter read
   * @param pause how to wait
   * @param backoff the retry schedule
   * @param seed the jitter's seed (fixed in tests)
   */
  public RetryingPlatform(Platform delegate, Clock clock, Pause pause, Backoff backoff, long seed) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.pause = Objects.requireNonNull(pause, "pause");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.random = new SplittableRandom(seed);
  }

  /**
   * {@code platform} itself when it already retries, else it wrapped with the system clock, real
   * sleeps, {@link Backoff#THROTTLING} and a time-seeded jitter.
   */
  public static RetryingPlatform of(Platform platform) {
    return of(platform, Clock.systemUTC());
  }

  /**
   * {@code platform} itself when it already retries, else it wrapped with {@code clock} (the
   * caller's one time source), real sleeps, {@link Backoff#THROTTLING} and a time-seeded jitter.
   */
  public static RetryingPlatform of(Platform platform, Clock clock) {
    if (platform instanceof RetryingPlatform r) {
      return r;
    }
    return new RetryingPlatform(
        platform, clock, Thread::sleep, Backoff.THROTTLING, NanoClock.SYSTEM.nanoTime());
  }

  /** The clock this path waits on. */
  public Clock clock() {
    return clock;
  }

  /** Every attempt so far, per minute. */
  public CallCounter calls() {
    return calls;
  }

  /** The interval between two polls of the endpoint: the platform's {@link Physics}. */
  public Duration pollInterval(String endpoint) {
    return delegate.physics(endpoint).minPollInterval();
  }

  /** Waits {@code d} on this path's pause; an interrupt becomes an Unavailable exception. */
  public void pause(Duration d) {
    if (d.isNegative() || d.isZero()) {
      return;
    }
    try {
      pause.pause(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PlatformException(
          new PlatformException.Reason.Unavailable("interrupted while waiting " + d), e);
    }
  }

  /**
   * Runs one control-plane call: waits for the adaptive rate, calls, and on throttling backs off
   * and tries again, up to the backoff's attempts.
   *
   * @param operation the call's name, for the message when it gives up
   */
  public <T> T call(String operation, Supplier<T> call) {
    for (int attempt = 0; ; attempt++) {
      Duration wait;
      synchronized (rate) {
        wait = rate.acquire(clock.instant());
      }
      pause(wait);
      try {
        T result = call.get();
        Instant now = clock.instant();
        calls.count(now, false);
        synchronized (rate) {
          rate.succeeded(now);
        }
        return result;
      } catch (PlatformException e) {
        if (!(e.reason() instanceof PlatformException.Reason.Throttled)) {
          calls.count(clock.instant(), false);
          throw e;
        }
        Instant now = clock.instant();
        calls.count(now, true);
        synchronized (rate) {
          rate.throttled(now);
        }
        if (delegate.retriesThrottling()) {
          throw e; // the platform retried already, up to its own ceiling: one owner for retries
        }
        if (attempt + 1 >= backoff.maxAttempts()) {
          throw new PlatformException(
              new PlatformException.Reason.Throttled(
                  String.format(
                      Locale.ROOT,
                      "%s (throttled %d times in a row, backing off up to %s)",
                      operation,
                      attempt + 1,
                      backoff.cap())),
              e);
        }
        pause(backoff.delay(attempt, random));
      }
    }
  }

  private void run(String operation, Runnable call) {
    call(
        operation,
        () -> {
          call.run();
          return null;
        });
  }

  @Override
  public String name() {
    return delegate.name();
  }

  /** True: this wrapper retries throttling, or leaves it to a platform that does. */
  @Override
  public boolean retriesThrottling() {
    return true;
  }

  @Override
  public EndpointDescription describe(String endpoint) {
    return call("describe " + endpoint, () -> delegate.describe(endpoint));
  }

  @Override
  public Fingerprint fingerprint(String endpoint) {
    return call("fingerprint " + endpoint, () -> delegate.fingerprint(endpoint));
  }

  @Override
  public ScalingState scalingState(String endpoint) {
    return call("scaling state of " + endpoint, () -> delegate.scalingState(endpoint));
  }

  @Override
  public java.util.Optional<String> failureReason(String endpoint) {
    return call("failure reason of " + endpoint, () -> delegate.failureReason(endpoint));
  }

  @Override
  public void setSuspended(String endpoint, SuspendedState state) {
    run("suspend " + endpoint, () -> delegate.setSuspended(endpoint, state));
  }

  @Override
  public void putScheduledAction(String endpoint, ScheduledAction action) {
    run(
        "put scheduled action " + action.name() + " on " + endpoint,
        () -> delegate.putScheduledAction(endpoint, action));
  }

  @Override
  public void deleteScheduledAction(String endpoint, String name) {
    run(
        "delete scheduled action " + name + " of " + endpoint,
        () -> delegate.deleteScheduledAction(endpoint, name));
  }

  @Override
  public void setDesiredInstances(String endpoint, int count) {
    run("set desired of " + endpoint, () -> delegate.setDesiredInstances(endpoint, count));
  }

  @Override
  public List<InstanceLog> instanceLogs(String endpoint, Instant since) {
    return call("instance logs of " + endpoint, () -> delegate.instanceLogs(endpoint, since));
  }

  @Override
  public Duration finestMetricPeriod() {
    return delegate.finestMetricPeriod();
  }

  @Override
  public Physics physics(String endpoint) {
    return delegate.physics(endpoint);
  }

  @Override
  public List<MetricSeries> metrics(String endpoint, List<MetricQuery> queries) {
    return call(
        "metrics " + endpoint + " (" + queries.size() + " series)",
        () -> delegate.metrics(endpoint, queries));
  }

  @Override
  public MetricSeries metric(String endpoint, MetricQuery query) {
    return call(
        "metric " + query.metric().cloudWatchName() + " of " + endpoint,
        () -> delegate.metric(endpoint, query));
  }

  @Override
  public OptionalInt containerQueueBound(String endpoint) {
    return call("queue bound of " + endpoint, () -> delegate.containerQueueBound(endpoint));
  }

  @Override
  public List<OrphanedScaling> orphanedScaling() {
    return call("orphaned scaling scan", delegate::orphanedScaling);
  }

  @Override
  public java.util.Optional<CpuLimit> cpuLimit(String endpoint) {
    return call("cpu limit of " + endpoint, () -> delegate.cpuLimit(endpoint));
  }

  @Override
  public java.util.Optional<HostSpeedProbe> startHostSpeedProbe(String endpoint) {
    return call("host speed probe of " + endpoint, () -> delegate.startHostSpeedProbe(endpoint));
  }

  @Override
  public Invoker invoker(String endpoint, Transport transport) {
    return delegate.invoker(endpoint, transport);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
