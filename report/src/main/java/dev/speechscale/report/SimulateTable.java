package dev.speechscale.report;

import dev.speechscale.artifacts.SimulateArtifact;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The comparison table {@code tts-bench simulate} prints: one row per policy. */
public final class SimulateTable {
  private SimulateTable() {}

  public static String render(SimulateArtifact a) {
    StringBuilder b = new StringBuilder();
    SimulateArtifact.InstanceSection m = a.instance();
    b.append(
        String.format(
            Locale.ROOT,
            "simulate %s: %s, seed %d, SLO %.0f ms, metric delay %.0f s%n",
            a.model(),
            a.traffic().description(),
            a.seed(),
            a.sloMs(),
            a.metricPublicationDelayS()));
    b.append(
        String.format(
            Locale.ROOT,
            "instance: %d slot(s), %.4g req/s saturated, queue_max_depth %d, deadline %.0f s,"
                + " start-up %.1f s%n%n",
            m.slots(),
            m.saturatedRps(),
            m.queueMaxDepth(),
            m.requestDeadlineS(),
            m.startupDelayS()));
    boolean cost = a.pricePerHour() != null;
    b.append(header(cost));
    for (SimulateArtifact.PolicySection p : a.policies()) {
      b.append(row(p, cost));
    }
    b.append(System.lineSeparator());
    for (SimulateArtifact.PolicySection p : a.policies()) {
      b.append(String.format(Locale.ROOT, "  %-12s %s%n", p.name(), p.description()));
    }
    return b.toString();
  }

  /** The table's column heads; the cost column only when the run was priced. */
  private static String header(boolean cost) {
    return String.format(
        Locale.ROOT,
        "%-12s %13s %8s %7s %8s %8s %8s %5s %7s %9s%s %7s %8s%n",
        "policy",
        "arrived",
        "SLO ok",
        "shed",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "peak",
        "mean",
        "inst-h",
        cost ? String.format(Locale.ROOT, " %10s", "cost") : "",
        "out/in",
        "at max");
  }

  /** One policy's row. */
  private static String row(SimulateArtifact.PolicySection p, boolean cost) {
    return String.format(
        Locale.ROOT,
        "%-12s %13d %7.2f%% %6.2f%% %8s %8s %8s %5d %7.1f %9.1f%s %7s %8s%n",
        p.name(),
        p.arrived(),
        p.sloAttainmentPct(),
        p.shedPct(),
        ms(p.ttfabP50Ms()),
        ms(p.ttfabP95Ms()),
        ms(p.ttfabP99Ms()),
        p.peakInstances(),
        p.meanInstances(),
        p.instanceHours(),
        cost ? String.format(Locale.ROOT, " %10.2f", p.cost()) : "",
        p.scaleOuts() + "/" + p.scaleIns(),
        duration(p.timeAtMaxS()));
  }

  private static String ms(@Nullable Double v) {
    return v == null ? "-" : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String duration(long seconds) {
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return String.format(Locale.ROOT, "%.1fm", seconds / 60.0);
    }
    return String.format(Locale.ROOT, "%.1fh", seconds / 3600.0);
  }
}
