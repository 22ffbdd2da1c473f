package dev.speechscale.loadgen;

import dev.speechscale.artifacts.RungStability;
import dev.speechscale.artifacts.StepBreakdown;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** Prints ladder progress as one line per event, for stderr. */
public final class ProgressPrinter implements LadderListener {
  private final PrintStream out;
  private final double sloMs;

  public ProgressPrinter(PrintStream out, double sloMs) {
    this.out = out;
    this.sloMs = sloMs;
  }

  @Override
  public void rungStarted(Progress p) {
    out.printf(
        Locale.ROOT,
        "qmax: run %d/%d rung %d N=%d (%s) — elapsed %s, ETA %s%n",
        p.runIndex() + 1,
        p.runs(),
        p.stepIndex() + 1,
        p.concurrency(),
        switch (p.phase()) {
          case COARSE -> "coarse";
          case BISECT -> "bisect";
          case RECHECK -> "drift re-check";
        },
        format(p.elapsed()),
        format(p.eta()));
  }

  @Override
  public void rungFinished(Progress p, RungReport r) {
    WindowStats s = r.stats();
    String verdict =
        r.usable() ? (r.meetsSlo(sloMs) ? "meets SLO" : "breaches SLO") : r.verdict().reason();
    out.printf(
        Locale.ROOT,
        "qmax:   N=%d p95 TTFAB %s, %.2f req/s, in-flight %.2f, %d ok / %d rejected — %s%s%s%n",
        r.concurrency(),
        s.ttfabP95Ms() == null ? "n/a" : String.format(Locale.ROOT, "%.1f ms", s.ttfabP95Ms()),
        s.achievedRps(),
        s.concurrencyMean(),
        s.ok(),
        s.rejected(),
        verdict,
        stability(r.stability()),
        server(s.breakdown()));
  }

  /**
   * {@code "; 4 windows, the last 3 agree (spread 2.1 % req/s, 4.0 % p95)"} for a rung held until
   * its windows agreed; nothing otherwise (an unstable rung's verdict says it).
   */
  static String stability(@Nullable RungStability st) {
    if (st == null || !st.stable()) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        "; %d window(s), the last %d agree (spread %.1f %% req/s, %.1f %% p95)",
        st.windows().size(),
        st.windowsRequired(),
        st.throughputSpreadPct() == null ? Double.NaN : st.throughputSpreadPct(),
        st.p95SpreadPct() == null ? Double.NaN : st.p95SpreadPct());
  }

  /**
   * {@code "; server p95: queue 12.0 ms, engine 40.1 ms"}, or nothing when the server said none.
   */
  static String server(@Nullable StepBreakdown b) {
    if (b == null || b.queueWaitP95Ms() == null || b.engineFirstChunkP95Ms() == null) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        "; server p95: queue %.1f ms, engine %.1f ms",
        b.queueWaitP95Ms(),
        b.engineFirstChunkP95Ms());
  }

  @Override
  public void note(String message) {
    out.println("qmax: " + message);
  }

  /** {@code 1h02m03s}, {@code 4m05s}, {@code 6s}. */
  static String format(Duration d) {
    long s = Math.max(0, (d.toMillis() + 500) / 1000);
    if (s >= 3600) {
      return String.format(Locale.ROOT, "%dh%02dm%02ds", s / 3600, s / 60 % 60, s % 60);
    }
    if (s >= 60) {
      return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
    return s + "s";
  }
}
