package dev.speechscale.capacity;

import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One rung measured twice, early and late in the same ladder, and whether the two agree: the
 * ladder's drift check. A ladder compares rungs measured minutes apart as if the endpoint had stood
 * still; when the machine under it speeds up or slows down between them, Q_max measures the drift.
 * The recorded quickstart of issue 15 put p95 at N=13 (1241 ms) above N=14 (1115 ms) and N=16 (1038
 * ms) because throughput fell from 15.2 to 12.4 req/s (−18 %) between the rungs measured early and
 * late.
 *
 * <p>Changes are relative to the first measurement: {@code 100·(again − first)/first}. A change
 * beyond its tolerance in either figure (strictly greater in magnitude) is drift; a re-measurement
 * that completed nothing has no p95 and counts as drift in both.
 *
 * @param concurrency the rung's N
 * @param when when it was re-measured, in words ("at the end of run 1", ...)
 * @param elapsedSeconds wall time from the first measurement's window end to the re-measurement's
 * @param firstRps ok completions per second the first time
 * @param againRps ... the second time (0 when nothing completed)
 * @param firstP95Ms p95 TTFAB the first time
 * @param againP95Ms ... the second time, or {@code null} when nothing completed
 * @param throughputTolerancePct the throughput change, in percent, still counted as noise
 * @param p95TolerancePct the p95 change, in percent, still counted as noise
 */
public record RungDrift(
    int concurrency,
    String when,
    double elapsedSeconds,
    double firstRps,
    double againRps,
    double firstP95Ms,
    @Nullable Double againP95Ms,
    double throughputTolerancePct,
    double p95TolerancePct) {

  public RungDrift {
    Objects.requireNonNull(when, "when");
    if (concurrency < 1) {
      throw new CapacityException(
          "a re-measured rung's concurrency (" + concurrency + ") must be at least 1");
    }
    if (!(firstRps > 0) || !(firstP95Ms > 0)) {
      throw new CapacityException(
          String.format(
              Locale.ROOT,
              "N=%d's first measurement (%.2f req/s, p95 %.1f ms) must have positive throughput"
                  + " and p95: only a rung that completed requests can be a reference",
              concurrency,
              firstRps,
              firstP95Ms));
    }
    if (!(againRps >= 0) || (againP95Ms != null && !(againP95Ms >= 0))) {
      throw new CapacityException(
          String.format(
              Locale.ROOT,
              "N=%d's re-measurement (%.2f req/s, p95 %s ms) must not be negative",
              concurrency,
              againRps,
              againP95Ms));
    }
    if (!(throughputTolerancePct > 0) || !(p95TolerancePct > 0)) {
      throw new CapacityException(
          "drift tolerances (throughput "
              + throughputTolerancePct
              + " %, p95 "
              + p95TolerancePct
              + " %) must be positive percentages, e.g. 10 and 15");
    }
  }

  /** The throughput change in percent of the first measurement (negative: it slowed down). */
  public double throughputChangePct() {
    return 100 * (againRps - firstRps) / firstRps;
  }

  /**
   * The p95 change in percent of the first measurement, or {@code null} with no re-measured p95.
   */
  public @Nullable Double p95ChangePct() {
    return againP95Ms == null ? null : 100 * (againP95Ms - firstP95Ms) / firstP95Ms;
  }

  /** Throughput moved by more than its tolerance. */
  public boolean throughputBeyond() {
    return Math.abs(throughputChangePct()) > throughputTolerancePct;
  }

  /** p95 moved by more than its tolerance, or was not measured again. */
  public boolean p95Beyond() {
    Double change = p95ChangePct();
    return change == null || Math.abs(change) > p95TolerancePct;
  }

  /** Either figure moved beyond its tolerance: the rung did not measure the same endpoint twice. */
  public boolean beyond() {
    return throughputBeyond() || p95Beyond();
  }

  /**
   * The figures in one sentence: {@code N=16 re-measured at the end of run 1, 3m05s after its first
   * measurement: throughput 15.2 -> 12.4 req/s (-18.4 %, tolerance 10 %), p95 TTFAB 1038 -> 1241 ms
   * (+19.6 %, tolerance 15 %)}.
   */
  public String describe() {
    Double p95Change = p95ChangePct();
    return String.format(
        Locale.ROOT,
        "N=%d re-measured %s, %s after its first measurement: throughput %.1f -> %.1f req/s"
            + " (%+.1f %%, tolerance %s %%), p95 TTFAB %.0f -> %s (%s, tolerance %s %%)",
        concurrency,
        when,
        duration(elapsedSeconds),
        firstRps,
        againRps,
        throughputChangePct(),
        number(throughputTolerancePct),
        firstP95Ms,
        againP95Ms == null
            ? "none (nothing completed)"
            : String.format(Locale.ROOT, "%.0f ms", againP95Ms),
        p95Change == null ? "n/a" : String.format(Locale.ROOT, "%+.1f %%", p95Change),
        number(p95TolerancePct));
  }

  private static String duration(double seconds) {
    long s = Math.round(seconds);
    return s >= 60
        ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60)
        : String.format(Locale.ROOT, "%.1f s", seconds);
  }

  private static String number(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
  }
}
