package dev.speechscale.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How much slower a freshly started instance serves its first requests than a warm one: a factor on
 * the request's engine occupancy, its time in flight and its first byte, by how many requests the
 * instance has started before it. The server's Java side (HTTP, streaming, the gate) is JIT-cold in
 * a new JVM; on the local fleet the instance that came into service in a replay's surge served its
 * first 3–6 s about 1.4× slower than a warm one (measurements/simulator-calibration.md, "A new
 * instance is cold"), and the backlog it built is most of the minute after a surge.
 *
 * <p><b>From a measurement</b> ({@link #fromServiceTimes}): the service times of a fresh instance's
 * first requests in order (qmax's warm-up on the instance the deploy just started), grouped in
 * doubling buckets of request indices (0–3, 4–7, 8–15, 16–31, …); each bucket's factor is its mean
 * over the reference, the mean of the last half of the requests (the instance warm by then), and
 * the first bucket within {@value #WARM_WITHIN_PCT} % of the reference ends the ramp (a warm
 * instance is not faster than warm, and a few percent is a closed loop's noise from one bucket to
 * the next). An instance that was not fresh gives no steps: {@link #NONE}. qmax gives a reference
 * of its own when it has one ({@link #fromBuckets}): the ladder's settled rung at the warm-up's N
 * (else the nearest), the instance as warm as the ladder measured it, because a 20 s warm-up ends
 * before the instance is warm (the artifact's {@code warmup_ramp.reference_source} says which).
 *
 * <p><b>From a scale-out</b> ({@link #fromWindows}): {@code ttotal}'s probe keeps running a minute
 * past in service, and the platform names the instance behind each response, so each window since
 * in service gives the new instance's mean service time over the old one's in the same window
 * (which also cancels the host's speed when both share it), and the requests the new instance
 * started in it. The steps end where those requests do: the cold start goes by the requests the
 * instance has served, not by its age. Measured on the local fleet (measurements/
 * simulator-calibration.md, "Run o"), ttotal's closed-loop probe saw ×1.36 over the new instance's
 * first 194 requests (its first 15 s) and ×1.10 to request 429 (15–30 s); the replays' open-loop
 * surge, whose new instance took half as many requests a second, saw ×1.35–1.40 over its first 200
 * requests and ×1.04–1.09 over 200–450 — but ×1.26–1.27 in its 15–30 s, where by age ttotal said
 * ×1.10. A scale-out's measurement replaces the warm-up's ramp wherever there is one.
 *
 * <p>The fleet's initial instances are warm (a day's fleet has long been running) unless the run
 * says how many requests they have served ({@code FleetSimulator.Options#initialServed}: a replay's
 * one instance is deployed for it and warmed for 20 s, a few hundred requests, and goes on along
 * this cold start from there); every instance a scale-out starts is cold.
 *
 * @param steps the factor for requests below each step's {@code untilRequest} (and at or above the
 *     previous step's), in increasing order; requests past the last step have factor 1
 * @param source where the steps came from, for the model's derivation
 */
public record ColdStart(List<Step> steps, String source) {
  /** New instances serve as warm ones from their first request. */
  public static final ColdStart NONE = new ColdStart(List.of(), "none");

  /** The smallest bucket: the first four requests, a closed loop's first round at N = 4. */
  static final int FIRST_BUCKET = 4;

  /** A bucket this close to the reference (or below it) is warm. */
  static final double WARM_WITHIN_PCT = 5;

  /**
   * Requests {@code [previous untilRequest, untilRequest)} take {@code factor} × a warm instance's
   * time.
   *
   * @param untilRequest the first request index past this step
   * @param factor ≥ 1
   */
  public record Step(int untilRequest, double factor) {
    public Step {
      if (untilRequest < 1) {
        throw new SimulatorException(
            "a cold-start step's until_request (" + untilRequest + ") must be at least 1");
      }
      if (!(factor >= 1) || Double.isInfinite(factor)) {
        throw new SimulatorException(
            String.format(
                Locale.ROOT,
                "a cold-start step's factor (%s, requests below %d) must be a finite number >= 1:"
                    + " a cold instance is not faster than a warm one",
                factor,
                untilRequest));
      }
    }
  }

  public ColdStart {
    Objects.requireNonNull(source, "source");
    steps = List.copyOf(steps);
    for (int i = 1; i < steps.size(); i++) {
      if (steps.get(i).untilRequest() <= steps.get(i - 1).untilRequest()) {
        throw new SimulatorException(
            "cold-start steps must end in increasing order; step "
                + i
                + " ends at request "
                + steps.get(i).untilRequest()
                + ", the one before at "
                + steps.get(i - 1).untilRequest());
      }
    }
  }

  /** True when new instances are warm from their first request. */
  public boolean none() {
    return steps.isEmpty();
  }

  /** The factor for the instance's request {@code index} (0: its first). */
  public double factor(long index) {
    for (Step s : steps) {
      if (index < s.untilRequest()) {
        return s.factor();
      }
    }
    return 1;
  }

  /** Requests a new instance serves before it is warm: the last step's end (0 with none). */
  public int rampRequests() {
    return steps.isEmpty() ? 0 : steps.getLast().untilRequest();
  }

  /**
   * The steps a scale-out's windows give (see the class comment): window i's factor (new instance
   * over old, NaN where a window had too few requests to say) for the requests the new instance
   * started in it, up to the last window more than {@value #WARM_WITHIN_PCT} % slower than warm
   * (windows before it that read within that are kept at their factor, at least 1: a single 15 s
   * window within 5 % and a slow one after it is the noise of ~200 requests, not a warm instance
   * that cooled), and never past the first window without a factor; a ramp still cold at its last
   * window ends there (nothing measured says how long it lasts after).
   *
   * @param requests the requests the new instance started in each window
   * @param factors each window's factor
   * @param source where they were measured, for the derivation
   */
  public static ColdStart fromWindows(List<Integer> requests, List<Double> factors, String source) {
    requirePaired("window", requests, "request counts", factors, "factors");
    // the windows up to the first without a factor (too few requests to give one)
    int usable = 0;
    while (usable < factors.size() && factors.get(usable) >= 0 && requests.get(usable) >= 1) {
      usable++;
    }
    // the cold start runs to the last of them still beyond WARM_WITHIN_PCT: one window within it
    // is a window's noise when a later one is slow again (the tail of runs q and r)
    int last = -1;
    for (int i = 0; i < usable; i++) {
      if (factors.get(i) > 1 + WARM_WITHIN_PCT / 100) {
        last = i;
      }
    }
    List<Step> steps = new ArrayList<>();
    int until = 0;
    for (int i = 0; i <= last; i++) {
      until += requests.get(i);
      steps.add(new Step(until, Math.max(1, factors.get(i))));
    }
    return new ColdStart(steps, source);
  }

  /**
   * The steps a fresh instance's first service times give (see the class comment).
   *
   * @param serviceSeconds the service time of each of its first requests, in the order they ended
   * @param source where they were measured, for the derivation
   */
  public static ColdStart fromServiceTimes(double[] serviceSeconds, String source) {
    return fromBuckets(Buckets.of(serviceSeconds), source);
  }

  /**
   * The steps recorded bucket means give: each bucket's factor is its mean over the reference,
   * until the first bucket within {@value #WARM_WITHIN_PCT} % of it or below.
   */
  public static ColdStart fromBuckets(Buckets b, String source) {
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < b.untilRequest().size(); i++) {
      double factor = b.referenceS() > 0 ? b.meanS().get(i) / b.referenceS() : 1;
      if (!(factor > 1 + WARM_WITHIN_PCT / 100)) {
        break;
      }
      steps.add(new Step(b.untilRequest().get(i), factor));
    }
    return steps.isEmpty() ? NONE : new ColdStart(steps, source);
  }

  /**
   * A fresh instance's first service times in doubling buckets of request indices (0–3, 4–7, 8–15,
   * …, none past the first half) and the reference, the mean of the last half.
   *
   * @param untilRequest each bucket's end (exclusive)
   * @param meanS each bucket's mean service time, seconds
   * @param referenceS the last half's mean, seconds (0 with fewer than {@code 2 × FIRST_BUCKET})
   */
  public record Buckets(List<Integer> untilRequest, List<Double> meanS, double referenceS) {
    public Buckets {
      untilRequest = List.copyOf(untilRequest);
      meanS = List.copyOf(meanS);
      requirePaired("bucket", untilRequest, "ends", meanS, "means");
    }

    /** The buckets of {@code serviceSeconds}, in the order the requests ended. */
    public static Buckets of(double[] serviceSeconds) {
      int n = serviceSeconds.length;
      List<Integer> until = new ArrayList<>();
      List<Double> means = new ArrayList<>();
      if (n < 2 * FIRST_BUCKET) {
        return new Buckets(until, means, 0);
      }
      for (int from = 0, end = FIRST_BUCKET; end <= n / 2; from = end, end *= 2) {
        until.add(end);
        means.add(mean(serviceSeconds, from, end));
      }
      return new Buckets(until, means, mean(serviceSeconds, n / 2, n));
    }
  }

  private static double mean(double[] xs, int from, int until) {
    double sum = 0;
    for (int i = from; i < until; i++) {
      sum += xs[i];
    }
    return sum / (until - from);
  }

  /** One line for the model's derivation. */
  public String describe() {
    if (none()) {
      return "new instances serve warm from their first request";
    }
    StringBuilder b = new StringBuilder("a new instance's first requests take ");
    int from = 0;
    for (int i = 0; i < steps.size(); i++) {
      Step s = steps.get(i);
      b.append(
          String.format(
              Locale.ROOT,
              "%s%.2fx (%d-%d)",
              i == 0 ? "" : ", ",
              s.factor(),
              from,
              s.untilRequest() - 1));
      from = s.untilRequest();
    }
    return b.append(" a warm one's time (").append(source).append(')').toString();
  }

  /**
   * Refuses two lists that should hold one entry per {@code item} each but differ in length; the
   * message names both counts.
   */
  private static void requirePaired(
      String item, List<?> first, String firstName, List<?> second, String secondName) {
    if (first.size() != second.size()) {
      throw new SimulatorException(
          String.format(
              Locale.ROOT,
              "cold-start %ss: %d %s but %d %s; each %s needs both",
              item,
              first.size(),
              firstName,
              second.size(),
              secondName,
              item));
    }
  }
}
