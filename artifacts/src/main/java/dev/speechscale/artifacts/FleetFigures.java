package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a replay is judged on, in one shape for the live fleet and for the simulator's prediction,
 * so the two are compared field by field.
 *
 * @param arrivals requests the trace offered (sent, shed, failed or dropped)
 * @param ok requests that produced audio
 * @param shed requests the fleet refused on purpose (503 at the gate, deadline shedding)
 * @param errors requests that failed otherwise (5xx, transport) or that the client dropped
 * @param surgeToInServiceS seconds from the surge start (the trace's largest step up) until the
 *     fleet had one more instance in service than at that moment, or {@code null} when it never did
 * @param minutes one entry per minute of the trace, from its start
 * @param inServicePerSecond instances in service at the end of each second of the trace
 * @param desiredPerSecond desired instances at the end of each second of the trace
 */
public record FleetFigures(
    long arrivals,
    long ok,
    long shed,
    long errors,
    @Nullable Double surgeToInServiceS,
    List<Minute> minutes,
    List<Integer> inServicePerSecond,
    List<Integer> desiredPerSecond) {

  public FleetFigures {
    minutes = List.copyOf(minutes);
    inServicePerSecond = List.copyOf(inServicePerSecond);
    desiredPerSecond = List.copyOf(desiredPerSecond);
    if (ok + shed + errors != arrivals) {
      throw new ArtifactException(
          "fleet figures do not add up: ok "
              + ok
              + " + shed "
              + shed
              + " + errors "
              + errors
              + " != arrivals "
              + arrivals);
    }
  }

  /** Shed requests over arrivals, 0 when nothing arrived. */
  public double shedFraction() {
    return arrivals == 0 ? 0 : (double) shed / arrivals;
  }

  /**
   * One minute of the trace; requests belong to the minute of their intended send time.
   *
   * @param index minutes from the trace's start
   * @param arrivals requests offered in it
   * @param ok produced audio
   * @param shed refused on purpose
   * @param p95TtfabMs p95 time to first audio byte from the intended send time over the minute's
   *     successful requests, or {@code null} when none succeeded
   * @param meanInService mean instances in service over the minute
   * @param p95TtfabInterval the measured p95's distribution-free 95 % interval (order statistics of
   *     the minute's {@code ok} samples), or {@code null} on the predicted side, in files written
   *     before it was recorded, and when too few requests succeeded for one
   */
  public record Minute(
      int index,
      long arrivals,
      long ok,
      long shed,
      @Nullable Double p95TtfabMs,
      double meanInService,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Interval p95TtfabInterval) {
    public Minute {
      if (index < 0) {
        throw new ArtifactException("minute index (" + index + ") must not be negative");
      }
    }

    /** A minute without a sampling interval: the simulator's side, or an older file's. */
    public static Minute of(
        int index,
        long arrivals,
        long ok,
        long shed,
        @Nullable Double p95TtfabMs,
        double meanInService) {
      return new Minute(index, arrivals, ok, shed, p95TtfabMs, meanInService, null);
    }
  }

  /**
   * Where the true p95 lies with 95 % confidence, given the samples a minute had.
   *
   * @param lowMs the lower order statistic, milliseconds
   * @param highMs the upper order statistic, milliseconds
   */
  public record Interval(double lowMs, double highMs) {
    public Interval {
      if (!(lowMs <= highMs)) {
        throw new ArtifactException(
            "p95 interval: low_ms (" + lowMs + ") must not exceed high_ms (" + highMs + ")");
      }
    }

    /** Whether {@code valueMs} lies inside, ends included. */
    public boolean contains(double valueMs) {
      return lowMs <= valueMs && valueMs <= highMs;
    }
  }
}
