package dev.speechscale.simulator;

import dev.speechscale.capacity.ServiceTimeDistribution;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * When a request's first audio byte leaves, counted from the moment it starts on its slot (the
 * queue wait is simulated separately and added on top).
 */
public sealed interface FirstByte {

  /**
   * A fixed share of the request's full-response time S (same draw): the model for artifacts that
   * carry no TTFAB histograms.
   *
   * @param ratio first byte per second of S, in (0, 1]
   */
  record Proportional(double ratio) implements FirstByte {
    public Proportional {
      if (!(ratio > 0 && ratio <= 1)) {
        throw new SimulatorException(
            "first-byte ratio (" + ratio + ") must be in (0, 1]: TTFAB <= latency");
      }
    }
  }

  /**
   * The first-byte time depends on how many requests the instance holds when the request arrives
   * (itself included): its mean is read from the ladder's rungs and interpolated linearly between
   * them (held flat beyond the lowest and highest rung); its shape is the lowest rung's TTFAB
   * distribution, scaled to that mean (same draw u as S, so a long text is slow in both).
   *
   * @param shape the first-byte distribution at the lowest rung (no queue wait there)
   * @param means the mean first-byte time per held concurrency, from the rungs
   */
  record ByConcurrency(ServiceTimeDistribution shape, List<Point> means) implements FirstByte {
    public ByConcurrency {
      Objects.requireNonNull(shape, "shape");
      means =
          List.copyOf(means).stream().sorted(Comparator.comparingDouble(Point::inFlight)).toList();
      if (means.isEmpty()) {
        throw new SimulatorException(
            "a first-byte curve needs at least one rung's mean first-byte time");
      }
    }

    /** Mean first-byte seconds with {@code inFlight} requests on the instance (interpolated). */
    public double meanSecondsAt(double inFlight) {
      Point first = means.getFirst();
      if (inFlight <= first.inFlight()) {
        return first.meanSeconds();
      }
      for (int i = 1; i < means.size(); i++) {
        Point hi = means.get(i);
        if (inFlight <= hi.inFlight()) {
          Point lo = means.get(i - 1);
          double f = (inFlight - lo.inFlight()) / (hi.inFlight() - lo.inFlight());
          return lo.meanSeconds() + f * (hi.meanSeconds() - lo.meanSeconds());
        }
      }
      return means.getLast().meanSeconds();
    }
  }

  /**
   * One rung's mean first-byte time.
   *
   * @param inFlight requests the instance held (the rung's concurrency)
   * @param meanSeconds mean time from start on a slot to the first audio byte
   */
  record Point(double inFlight, double meanSeconds) {
    public Point {
      if (!(inFlight >= 1) || !(meanSeconds > 0) || Double.isInfinite(meanSeconds)) {
        throw new SimulatorException(
            "a first-byte point needs in-flight >= 1 and a finite positive mean, got "
                + inFlight
                + " and "
                + meanSeconds
                + " s");
      }
    }
  }

  /**
   * What one closed-loop rung measured, as the first-byte curve needs it.
   *
   * @param concurrency the rung's N (workers, one request each)
   * @param ttfabMeanSeconds mean TTFAB over its ok requests (queue wait included)
   * @param achievedRps ok completions per second
   */
  record Rung(int concurrency, double ttfabMeanSeconds, double achievedRps) {}

  /**
   * The curve from closed-loop rungs on an engine with {@code slots} slots. At rung N the instance
   * always holds N requests: N − slots wait while the slots work, so a request waits for N − slots
   * completions, (N − slots)/X(N) on average, before it starts. Its mean first byte after the start
   * is then {@code mean TTFAB(N) − max(0, N − slots)/X(N)}. Rungs measured in several runs are
   * averaged; a rung where that comes out at or below zero (the wait estimate exceeded the TTFAB on
   * a noisy rung) is left out.
   *
   * @throws SimulatorException when no rung gives a positive mean
   */
  static List<Point> means(List<Rung> rungs, int slots) {
    java.util.Map<Integer, double[]> sums = new java.util.TreeMap<>();
    for (Rung r : rungs) {
      if (!(r.achievedRps() > 0) || !(r.ttfabMeanSeconds() > 0)) {
        continue;
      }
      double wait = Math.max(0, r.concurrency() - slots) / r.achievedRps();
      double[] s = sums.computeIfAbsent(r.concurrency(), k -> new double[2]);
      s[0] += r.ttfabMeanSeconds() - wait;
      s[1]++;
    }
    List<Point> out = new java.util.ArrayList<>();
    sums.forEach((n, s) -> {
      double mean = s[0] / s[1];
      if (mean > 0) {
        out.add(new Point(n, mean));
      }
    });
    if (out.isEmpty()) {
      throw new SimulatorException(
          "no usable rung gives a positive first-byte time (mean TTFAB minus the closed-loop wait);"
              + " re-run tts-bench qmax");
    }
    return out;
  }
}
