package dev.speechscale.chain;

import dev.speechscale.artifacts.FleetFigures;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.platform.Invocation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What {@link ReplayRun} observed on the live endpoint: every request and every capacity sample,
 * timed in seconds from the trace's start, with the figures derived from them.
 *
 * @param origin where and when the trace ran
 * @param schedule what the trace sent
 * @param requests every arrival, in order of intended send time
 * @param samples every capacity reading, in time order
 * @param lateSends requests sent more than the driver's late threshold after their intended time
 * @param warmup how fast the instance served the warm-up before the trace, or {@code null} without
 *     one
 */
public record LiveReplay(
    Origin origin,
    Schedule schedule,
    List<Request> requests,
    List<CapacitySample> samples,
    long lateSends,
    @Nullable WarmupSpeed warmup) {

  public LiveReplay {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(schedule, "schedule");
    requests = List.copyOf(requests);
    samples = List.copyOf(samples);
  }

  /**
   * Where and when the trace ran.
   *
   * @param endpoint the endpoint
   * @param platform {@code local} or {@code aws}
   * @param startedAt wall time of the trace's start
   * @param alignedTo the alarm period the start was aligned to (zero when there was none), so the
   *     platform's epoch-aligned periods line up with a simulation that starts at 0
   */
  public record Origin(String endpoint, String platform, Instant startedAt, Duration alignedTo) {
    public Origin {
      Objects.requireNonNull(endpoint, "endpoint");
    }
  }

  /**
   * What the trace sent.
   *
   * @param traffic what the trace is (the simulator's description of it)
   * @param durationS the trace's length in whole seconds
   * @param surgeStartS seconds from the trace's start to its surge, or {@code null} without one
   * @param seed the arrivals' seed (the simulator draws the same arrivals with it)
   * @param sampleEvery how often instances were read
   */
  public record Schedule(
      String traffic,
      long durationS,
      @Nullable Double surgeStartS,
      long seed,
      Duration sampleEvery) {}

  /** How one request ended. */
  public enum Status {
    /** Audio arrived. */
    OK,
    /** Refused on purpose: 503 at the gate, deadline shedding, 408 stale. */
    SHED,
    /** Failed otherwise: 5xx, a bad response, a transport error. */
    ERROR,
    /** Never sent: the client's in-flight bound was reached (the client, not the fleet). */
    DROPPED
  }

  /**
   * One arrival.
   *
   * @param intendedS intended send time, seconds from the trace's start
   * @param ttfabMs first audio byte minus the intended send time, or {@code null} without audio
   * @param status how it ended
   */
  public record Request(double intendedS, @Nullable Double ttfabMs, Status status) {
    public Request {
      Objects.requireNonNull(status, "status");
    }
  }

  /**
   * One reading of the endpoint's instance counts.
   *
   * @param atS seconds from the trace's start
   * @param desired desired instances
   * @param inService instances in service
   */
  public record CapacitySample(double atS, int desired, int inService) {}

  /** The figures a prediction is compared on. */
  public FleetFigures figures() {
    long ok = count(Status.OK);
    long shed = count(Status.SHED);
    long errors = count(Status.ERROR) + count(Status.DROPPED);
    int seconds = (int) schedule.durationS();
    List<Integer> inService = new ArrayList<>();
    List<Integer> desired = new ArrayList<>();
    for (int s = 0; s < seconds; s++) {
      CapacitySample at = stateAt(s + 1);
      inService.add(at == null ? 0 : at.inService());
      desired.add(at == null ? 0 : at.desired());
    }
    int minutes = (seconds + 59) / 60;
    List<FleetFigures.Minute> perMinute = new ArrayList<>();
    for (int m = 0; m < minutes; m++) {
      perMinute.add(minute(m, inService));
    }
    return new FleetFigures(
        requests.size(), ok, shed, errors, surgeToInServiceS(), perMinute, inService, desired);
  }

  private FleetFigures.Minute minute(int m, List<Integer> inServicePerSecond) {
    double from = m * 60.0;
    double to = from + 60;
    List<Request> in =
        requests.stream().filter(r -> r.intendedS() >= from && r.intendedS() < to).toList();
    double[] ttfab =
        in.stream()
            .filter(r -> r.status() == Status.OK && r.ttfabMs() != null)
            .mapToDouble(Request::ttfabMs)
            .toArray();
    List<Integer> secs =
        inServicePerSecond.subList(m * 60, Math.min(inServicePerSecond.size(), m * 60 + 60));
    return new FleetFigures.Minute(
        m,
        in.size(),
        in.stream().filter(r -> r.status() == Status.OK).count(),
        in.stream().filter(r -> r.status() == Status.SHED).count(),
        ttfab.length == 0 ? null : Percentile.of(ttfab, 95),
        secs.stream().mapToInt(Integer::intValue).average().orElse(0),
        p95Interval(ttfab));
  }

  /** The p95's 95 % interval from order statistics, or null with too few samples for one. */
  static FleetFigures.@Nullable Interval p95Interval(double[] ttfabMs) {
    double[] sorted = ttfabMs.clone();
    Arrays.sort(sorted);
    double[] lowHigh = Percentiles95.interval(sorted);
    return lowHigh == null ? null : new FleetFigures.Interval(lowHigh[0], lowHigh[1]);
  }

  private long count(Status status) {
    return requests.stream().filter(r -> r.status() == status).count();
  }

  /** The last sample taken before {@code s} seconds, else the first one; null without samples. */
  private @Nullable CapacitySample stateAt(double s) {
    CapacitySample last = samples.isEmpty() ? null : samples.getFirst();
    for (CapacitySample c : samples) {
      if (c.atS() >= s) {
        break;
      }
      last = c;
    }
    return last;
  }

  /**
   * Seconds from the surge start until the first sample with more instances in service than the
   * fleet had at the surge start; {@code null} without a surge or a scale-out.
   */
  public @Nullable Double surgeToInServiceS() {
    Double surge = schedule.surgeStartS();
    CapacitySample base = surge == null ? null : stateAt(surge); // null without samples
    if (surge == null || base == null) {
      return null;
    }
    for (CapacitySample c : samples) {
      if (c.atS() >= surge && c.inService() > base.inService()) {
        return c.atS() - surge;
      }
    }
    return null;
  }

  /** Every arrival, answered or dropped, by intended send time from {@code t0}. */
  static List<Request> requests(
      List<RequestEvent> events, java.util.Collection<Long> dropped, long t0) {
    List<Request> requests = new ArrayList<>();
    for (RequestEvent e : events) {
      requests.add(
          new Request(
              (e.intendedNanos() - t0) / 1e9,
              e.ok() && e.ttfabNanos() >= 0 ? e.ttfabNanos() / 1e6 : null,
              status(e.outcome())));
    }
    for (long at : dropped) {
      requests.add(new Request((at - t0) / 1e9, null, Status.DROPPED));
    }
    requests.sort(java.util.Comparator.comparingDouble(Request::intendedS));
    return requests;
  }

  /** How a sent request that ended with {@code outcome} counts. */
  static Status status(Invocation.Outcome outcome) {
    return switch (outcome) {
      case OK -> Status.OK;
      case REJECTED -> Status.SHED;
      case CLIENT_ERROR, SERVER_ERROR, TRANSPORT_ERROR -> Status.ERROR;
    };
  }
}
