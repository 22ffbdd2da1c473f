package dev.speechscale.report;

import dev.speechscale.artifacts.ReplayArtifact;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** The replay's text output: predicted beside measured, one figure a line. */
public final class ReplayTable {
  private ReplayTable() {}

  public static void print(ReplayArtifact a, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "replay %s: %s, seed %d, surge at %s%n",
        a.endpoint(),
        a.traffic(),
        a.seed(),
        a.surgeStartS() == null ? "none" : fmt(a.surgeStartS()) + " s");
    out.printf(
        Locale.ROOT,
        "  arrivals %d predicted, %d measured (%d late sends); start-up delay %s s; metric delay"
            + " %s s%n",
        a.predicted().arrivals(),
        a.measured().arrivals(),
        a.live().lateSends(),
        fmt(a.physics().startupDelayS()),
        fmt(a.physics().metricDelayS()));
    for (String line : startLines(a)) {
      out.println("  " + line);
    }
    out.printf(
        Locale.ROOT,
        "%-26s %10s %10s %10s %8s  %s%n",
        "figure",
        "predicted",
        "measured",
        "error",
        "target",
        "result");
    for (ReplayArtifact.Row r : a.comparison()) {
      String name =
          r.minute() == null ? label(r.figure()) : label(r.figure()) + " min " + r.minute();
      out.printf(
          Locale.ROOT,
          "%-26s %10s %10s %10s %8s  %s%s%n",
          name,
          value(r.figure(), r.predicted()),
          value(r.figure(), r.measured()),
          r.error() == null ? "-" : signed(r.error()) + " " + unit(r),
          r.tolerance() == null
              ? ""
              : String.format(Locale.ROOT, "±%s %s", fmt(r.tolerance()), r.errorUnit()),
          r.result().label().toUpperCase(Locale.ROOT).replace('_', ' '),
          r.note() == null || r.note().equals("reported") ? "" : " (" + r.note() + ")");
    }
    out.println("scaling predicted: " + events(a.predictedEvents()));
    out.println("scaling measured:  " + events(a.measuredEvents()));
    out.println("verdict: " + a.verdict());
  }

  private static String label(String figure) {
    return switch (figure) {
      case "shed_fraction" -> "shed fraction";
      case "surge_to_in_service_s" -> "surge to in service";
      case "p95_ttfab_ms" -> "p95 TTFAB";
      case "mean_in_service" -> "instances in service";
      default -> figure;
    };
  }

  private static String unit(ReplayArtifact.Row r) {
    return r.errorUnit() == null ? "" : r.errorUnit();
  }

  private static String value(String figure, @Nullable Double v) {
    if (v == null) {
      return "-";
    }
    return switch (figure) {
      case "shed_fraction" -> String.format(Locale.ROOT, "%.2f %%", v);
      case "surge_to_in_service_s" -> String.format(Locale.ROOT, "%.1f s", v);
      case "p95_ttfab_ms" -> String.format(Locale.ROOT, "%.0f ms", v);
      default -> String.format(Locale.ROOT, "%.2f", v);
    };
  }

  private static String events(List<ReplayArtifact.Event> events) {
    if (events.isEmpty()) {
      return "none";
    }
    return events.stream()
        .map(e ->
            String.format(Locale.ROOT, "%s %d->%d at %.1f s", e.what(), e.from(), e.to(), e.atS()))
        .collect(Collectors.joining(", "));
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
  }

  /**
   * An error with its sign to one decimal; one that rounds to zero is {@code 0.0}, not the {@code
   * -0.0} a formatter prints for a small negative.
   */
  static String signed(double error) {
    double rounded = Math.round(error * 10) / 10.0;
    return rounded == 0 ? "0.0" : String.format(Locale.ROOT, "%+.1f", rounded);
  }

  /**
   * What the prediction knew of the live fleet: the instance's speed in the warm-up against the
   * ladder, the alarm history read back from the endpoint, and the hosts' speed during the trace.
   * None for an artifact that recorded none of them.
   */
  static List<String> startLines(ReplayArtifact a) {
    List<String> lines = new java.util.ArrayList<>();
    ReplayArtifact.Warmup w = a.live().warmup();
    if (w != null) {
      lines.add(
          String.format(
              Locale.ROOT,
              "instance speed: the warm-up at N=%d served %.2f req/s (%d requests in %.1f s)%s; %s",
              w.concurrency(),
              w.servedRps(),
              w.requests(),
              w.seconds(),
              w.ladderRps() == null || w.ratio() == null
                  ? ""
                  : String.format(
                      Locale.ROOT, ", the ladder %.2f: x%.3f", w.ladderRps(), w.ratio()),
              w.applied() ? "applied to X_sat" : "not applied (" + w.note() + ")"));
    }
    List<@Nullable Double> h = a.live().historyConcurrency();
    if (h != null) {
      long with = h.stream().filter(v -> v != null).count();
      lines.add(
          String.format(
              Locale.ROOT,
              "alarm history: the endpoint's own %d s before the trace (%d with a sample), read"
                  + " back for the prediction's alarms",
              h.size(),
              with));
    }
    String host = a.live().hostSpeedNote();
    if (host != null) {
      lines.add("host speed: " + host);
    }
    String initial = initialInstanceLine(a);
    if (initial != null) {
      lines.add(initial);
    }
    return lines;
  }

  /**
   * How the prediction took the endpoint's instance at the start ({@code replay
   * --initial-instances}); none for an artifact from before the flag.
   */
  private static @Nullable String initialInstanceLine(ReplayArtifact a) {
    Object how = a.provenance().parameters().get("initial_instances");
    if ("warm".equals(how)) {
      return "initial instance: in service before the replay (--initial-instances warm), predicted"
          + " as warm as qmax's ladder instance";
    }
    if (!"fresh".equals(how)) {
      return null;
    }
    ReplayArtifact.Warmup w = a.live().warmup();
    return w == null || w.initialServed() == null
        ? "initial instance: deployed for the replay and not warmed, predicted along the"
            + " scale-out's cold start from its first request"
        : "initial instance: deployed for the replay, "
            + w.initialServed()
            + " requests served in its warm-up, predicted along the scale-out's cold start from"
            + " there";
  }
}
