package dev.speechscale.simulator;

import dev.speechscale.capacity.SplitMix64;
import java.time.Duration;
import java.util.Iterator;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The offered traffic: a rate over time (Poisson arrivals within each constant-rate interval) or a
 * recorded list of arrival times.
 *
 * <p>Arrivals are generated lazily while a run advances, so memory does not grow with the length of
 * the trace: a CSV trace is read again, line by line, by every run (the {@code lines} supplier
 * opens it afresh), and a built-in shape is a function of the second.
 *
 * <p>CSV traces have a header naming their format:
 *
 * <ul>
 *   <li>{@code time_s,rps}: each row starts an interval at {@code time_s} with rate {@code rps}
 *       that lasts until the next row's {@code time_s}; the <b>last row ends the trace</b> at its
 *       {@code time_s} (its rate is not used, write 0). Times strictly increase from 0 or later;
 *       rates are finite and at least 0.
 *   <li>{@code arrival_s}: one arrival time per line, non-decreasing, at least 0; the trace ends at
 *       the end of the second that holds the last arrival.
 * </ul>
 *
 * A trace is checked completely when it is built: every bad line is reported with the file, the
 * line number, the value and the rule, and nothing is guessed.
 *
 * @param description what the traffic is, for reports
 * @param durationSeconds how long the traffic runs, in whole seconds
 * @param peakPerSecond the highest rate (for an arrival trace: the busiest second's arrivals)
 * @param expectedArrivals the expected number of arrivals (exact for an arrival trace)
 * @param source where the arrivals come from; only this class's factories make one
 */
public record Traffic(
    String description,
    long durationSeconds,
    double peakPerSecond,
    double expectedArrivals,
    Traffic.Source source) {
  private static final int ERRORS_SHOWN = 10;

  /** Where the arrivals come from: a built-in shape, or a CSV trace read afresh on each use. */
  private sealed interface Source {
    record Shape(RateShape shape) implements Source {}

    /** {@code arrivals}: one arrival time per line, else {@code time_s,rps} intervals. */
    record Csv(Supplier<Stream<String>> lines, boolean arrivals) implements Source {}
  }

  /** A rate per whole second: second {@code k} covers [k, k+1). */
  @FunctionalInterface
  interface RateShape {
    double perSecondAt(long second);
  }

  /**
   * A day-shaped rate: {@code trough + (peak − trough)·(1 − cos(2πt/24 h))/2}, lowest at t = 0
   * (midnight) and highest at 12 h, repeating every 24 h for as long as {@code duration}; constant
   * within each second.
   */
  public static Traffic diurnal(double peakPerSecond, double troughPerSecond, Duration duration) {
    long d = checkShape("diurnal", peakPerSecond, troughPerSecond, duration);
    double day = 86_400.0;
    return shape(
        String.format(
            Locale.ROOT,
            "diurnal %s..%s req/s over %d s (peak at 12 h)",
            rate(troughPerSecond),
            rate(peakPerSecond),
            d),
        d,
        peakPerSecond,
        k ->
            troughPerSecond
                + (peakPerSecond - troughPerSecond)
                    * (1 - Math.cos(2 * Math.PI * ((k % 86_400) + 0.5) / day))
                    / 2);
  }

  /** The trough for the first third, the peak for the second third, the trough again after. */
  public static Traffic step(double peakPerSecond, double troughPerSecond, Duration duration) {
    long d = checkShape("step", peakPerSecond, troughPerSecond, duration);
    long up = d / 3;
    long down = 2 * d / 3;
    return shape(
        String.format(
            Locale.ROOT,
            "step %s -> %s -> %s req/s at %d s and %d s of %d s",
            rate(troughPerSecond),
            rate(peakPerSecond),
            rate(troughPerSecond),
            up,
            down,
            d),
        d,
        peakPerSecond,
        k -> k >= up && k < down ? peakPerSecond : troughPerSecond);
  }

  /** A straight line from the trough at 0 to the peak at the end, constant within each second. */
  public static Traffic ramp(double peakPerSecond, double troughPerSecond, Duration duration) {
    long d = checkShape("ramp", peakPerSecond, troughPerSecond, duration);
    return shape(
        String.format(
            Locale.ROOT,
            "ramp %s -> %s req/s over %d s",
            rate(troughPerSecond),
            rate(peakPerSecond),
            d),
        d,
        peakPerSecond,
        k -> troughPerSecond + (peakPerSecond - troughPerSecond) * (k + 0.5) / d);
  }

  /** The trough, with the peak for a twentieth of the duration (at least 1 s) from the middle. */
  public static Traffic spike(double peakPerSecond, double troughPerSecond, Duration duration) {
    long d = checkShape("spike", peakPerSecond, troughPerSecond, duration);
    long from = d / 2;
    long to = Math.min(d, from + Math.max(1, d / 20));
    return shape(
        String.format(
            Locale.ROOT,
            "spike %s req/s with %s req/s in [%d s, %d s) of %d s",
            rate(troughPerSecond),
            rate(peakPerSecond),
            from,
            to,
            d),
        d,
        peakPerSecond,
        k -> k >= from && k < to ? peakPerSecond : troughPerSecond);
  }

  /** A constant rate, for tests and for the closed forms. */
  public static Traffic constant(double perSecond, Duration duration) {
    long d = checkShape("constant", perSecond, perSecond, duration);
    return shape(
        String.format(Locale.ROOT, "constant %s req/s over %d s", rate(perSecond), d),
        d,
        perSecond,
        k -> perSecond);
  }

  /**
   * A CSV trace. Reads {@code lines} once now to check every line (the exception lists the bad
   * ones, at most ten, and how many more), and again on every run.
   *
   * @param fileName how the trace is named in messages
   * @param lines opens the file's lines afresh on each call; the stream is closed after use
   */
  public static Traffic csv(String fileName, Supplier<Stream<String>> lines) {
    TraceCheck check = new TraceCheck(fileName);
    try (Stream<String> s = lines.get()) {
      s.forEachOrdered(check::accept);
    }
    check.finish();
    return new Traffic(
        check.describe(),
        check.durationSeconds(),
        check.peakPerSecond(),
        check.expectedArrivals(),
        new Source.Csv(lines, check.arrivalFormat()));
  }

  private static Traffic shape(String description, long d, double peak, RateShape shape) {
    double expected = 0;
    for (long k = 0; k < d; k++) {
      expected += shape.perSecondAt(k);
    }
    return new Traffic(description, d, peak, expected, new Source.Shape(shape));
  }

  /** A rate as written: no trailing zeros, no exponent. */
  static String rate(double perSecond) {
    return java.math.BigDecimal.valueOf(perSecond).stripTrailingZeros().toPlainString();
  }

  private static long checkShape(String name, double peak, double trough, Duration duration) {
    if (!(peak >= 0) || Double.isInfinite(peak)) {
      throw new SimulatorException(
          name + ": --peak-rps (" + peak + ") must be a finite rate of at least 0");
    }
    if (!(trough >= 0) || trough > peak) {
      throw new SimulatorException(
          name
              + ": --trough-rps ("
              + trough
              + ") must be at least 0 and at most --peak-rps ("
              + peak
              + ")");
    }
    if (duration == null || duration.toMillis() < 1000 || duration.toMillis() % 1000 != 0) {
      throw new SimulatorException(
          name + ": --duration (" + duration + ") must be a whole number of seconds, at least 1 s");
    }
    return duration.toSeconds();
  }

  /**
   * Draws the arrivals a run with {@code seed} would see and only counts them: the cost of the
   * traffic alone, the baseline a simulation's cost is measured against.
   */
  public long countArrivals(long seed) {
    long n = 0;
    try (ArrivalStream s = open(seed)) {
      for (double t = s.next(); !Double.isNaN(t) && t < durationSeconds; t = s.next()) {
        n++;
      }
    }
    return n;
  }

  /**
   * The rate the trace starts at, what a pre-roll replays before t = 0: a shape's rate in second 0,
   * a {@code time_s,rps} trace's first row's rate, an {@code arrival_s} trace's arrivals in its
   * first minute (or its whole length when shorter) per second.
   */
  public double firstRatePerSecond() {
    return switch (source) {
      case Source.Shape(RateShape shape) -> shape.perSecondAt(0);
      case Source.Csv(Supplier<Stream<String>> lines, boolean arrivals) when !arrivals -> {
        try (Stream<String> s = lines.get()) {
          yield s.skip(1)
              .map(String::strip)
              .filter(l -> !l.isEmpty() && !l.startsWith("#"))
              .findFirst()
              .map(l -> Double.parseDouble(l.substring(l.indexOf(',') + 1).strip()))
              .orElse(0.0);
        }
      }
      case Source.Csv c -> {
        long window = Math.max(1, Math.min(60, durationSeconds));
        long n = 0;
        try (ArrivalStream s = open(0)) {
          for (double t = s.next(); !Double.isNaN(t) && t < window; t = s.next()) {
            n++;
          }
        }
        yield (double) n / window;
      }
    };
  }

  /** A built-in shape's rate in second {@code second}; NaN for a CSV trace. */
  double shapeRateAt(long second) {
    return source instanceof Source.Shape(RateShape shape) ? shape.perSecondAt(second) : Double.NaN;
  }

  /** A fresh arrival sequence; the same seed gives the same arrivals. */
  ArrivalStream open(long seed) {
    return switch (source) {
      case Source.Shape(RateShape shape) ->
          new ShapeArrivals(shape, durationSeconds, new SplitMix64(seed));
      case Source.Csv(Supplier<Stream<String>> lines, boolean arrivals) ->
          arrivals
              ? new CsvArrivalTimes(lines.get())
              : new CsvRateArrivals(lines.get(), new SplitMix64(seed));
    };
  }

  /**
   * The arrival times, in seconds from the trace's start, that a run with {@code seed} draws: the
   * very sequence {@link FleetSimulator} feeds the fleet. A live replay sends exactly these, so a
   * prediction and a measurement differ by the model, not by the draw. Each call gives a fresh,
   * independent sequence; the caller closes it.
   */
  public Arrivals arrivals(long seed) {
    return new Arrivals(open(seed));
  }

  /**
   * Arrival times in non-decreasing order; {@link #nextSeconds()} is {@code NaN} after the last.
   */
  public static final class Arrivals implements AutoCloseable {
    private final ArrivalStream stream;

    private Arrivals(ArrivalStream stream) {
      this.stream = stream;
    }

    /** The next arrival, seconds from the trace's start, or {@code NaN} after the last. */
    public double nextSeconds() {
      return stream.next();
    }

    @Override
    public void close() {
      stream.close();
    }
  }

  static int errorsShown() {
    return ERRORS_SHOWN;
  }

  /** Arrival times in non-decreasing order, then {@code NaN}. */
  abstract static class ArrivalStream implements AutoCloseable {
    abstract double next();

    @Override
    public void close() {}
  }

  /** Poisson arrivals over a rate that is constant within each second. */
  private static final class ShapeArrivals extends ArrivalStream {
    private final RateShape shape;
    private final long end;
    private final SplitMix64 rng;
    private long second = -1;
    private double rate;
    private double t;

    ShapeArrivals(RateShape shape, long end, SplitMix64 rng) {
      this.shape = shape;
      this.end = end;
      this.rng = rng;
    }

    @Override
    double next() {
      while (true) {
        if (second >= 0 && rate > 0) {
          t += -Math.log1p(-rng.nextDouble()) / rate;
          if (t < second + 1) {
            return t;
          }
        }
        second++;
        if (second >= end) {
          return Double.NaN;
        }
        rate = shape.perSecondAt(second);
        t = second;
      }
    }
  }

  /** Poisson arrivals over the intervals of a {@code time_s,rps} trace, read line by line. */
  private static final class CsvRateArrivals extends ArrivalStream {
    private final Stream<String> stream;
    private final Iterator<String> lines;
    private final SplitMix64 rng;
    private double start = Double.NaN;
    private double end;
    private double rate;
    private double nextStart;
    private double nextRate;
    private double t;
    private boolean exhausted;

    CsvRateArrivals(Stream<String> stream, SplitMix64 rng) {
      this.stream = stream;
      this.lines = stream.iterator();
      this.rng = rng;
      lines.next(); // the header, checked when the trace was built
      if (!readRow()) {
        exhausted = true;
      }
    }

    private boolean readRow() {
      while (lines.hasNext()) {
        String line = lines.next().strip();
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        int comma = line.indexOf(',');
        nextStart = Double.parseDouble(line.substring(0, comma).strip());
        nextRate = Double.parseDouble(line.substring(comma + 1).strip());
        return true;
      }
      return false;
    }

    @Override
    double next() {
      while (!exhausted) {
        if (!Double.isNaN(start) && rate > 0) {
          t += -Math.log1p(-rng.nextDouble()) / rate;
          if (t < end) {
            return t;
          }
        }
        start = nextStart;
        rate = nextRate;
        if (!readRow()) {
          exhausted = true;
          break;
        }
        end = nextStart;
        t = start;
      }
      return Double.NaN;
    }

    @Override
    public void close() {
      stream.close();
    }
  }

  /** The recorded arrivals of an {@code arrival_s} trace, read line by line. */
  private static final class CsvArrivalTimes extends ArrivalStream {
    private final Stream<String> stream;
    private final Iterator<String> lines;

    CsvArrivalTimes(Stream<String> stream) {
      this.stream = stream;
      this.lines = stream.iterator();
      lines.next(); // the header
    }

    @Override
    double next() {
      while (lines.hasNext()) {
        String line = lines.next().strip();
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        return Double.parseDouble(line);
      }
      return Double.NaN;
    }

    @Override
    public void close() {
      stream.close();
    }
  }
}
