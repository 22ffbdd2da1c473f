package dev.speechscale.report;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.SimulateArtifact;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The HTML report of a {@code simulate} artifact: the comparison table, an overview of instances in
 * service and p95 TTFAB for every policy, then per policy its arrivals, instances, p95 TTFAB and
 * shed requests per minute and its scaling decisions.
 */
public final class SimulateReport {
  private static final String[] COLORS = {
    "#2563eb", "#c2410c", "#15803d", "#7c3aed", "#0f766e", "#b91c1c", "#4b5563"
  };
  private static final int EVENTS_SHOWN = 40;

  private SimulateReport() {}

  /** The whole report as one HTML document. */
  public static String html(SimulateArtifact a) {
    StringBuilder h = new StringBuilder(1 << 16);
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
        .append(Html.esc("Fleet simulation: " + a.model()))
        .append("</title><style>")
        .append("body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2rem auto;")
        .append("max-width:1300px;color:#1d2330;line-height:1.45;padding:0 1rem}")
        .append("h1{margin-bottom:.2rem}h2{border-bottom:2px solid #e3e7ef;padding-bottom:.2rem;")
        .append("margin-top:2rem}table{border-collapse:collapse;width:100%;font-size:.9rem}")
        .append("td,th{border-bottom:1px solid #e3e7ef;padding:.3rem .5rem;text-align:right;")
        .append(
            "white-space:nowrap}th{background:#f5f7fb;white-space:normal}td.l,th.l{text-align:left;")
        .append("white-space:normal}.meta{color:#5b6478}.grid{display:grid;")
        .append("grid-template-columns:repeat(2,620px);gap:.6rem 1.2rem}")
        .append(".swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;")
        .append("margin-right:.35rem;vertical-align:-1px}")
        .append("svg text{font-family:system-ui,sans-serif}</style></head><body>\n");
    h.append("<h1>Fleet simulation: ").append(Html.esc(a.model())).append("</h1>\n");
    summary(h, a);
    table(h, a);
    overview(h, a);
    for (int i = 0; i < a.policies().size(); i++) {
      policy(h, a, a.policies().get(i), COLORS[i % COLORS.length]);
    }
    h.append("</body></html>\n");
    return h.toString();
  }

  private static void summary(StringBuilder h, SimulateArtifact a) {
    SimulateArtifact.InstanceSection m = a.instance();
    h.append("<p class=\"meta\">")
        .append(Html.esc(a.traffic().description()))
        .append(
            String.format(
                Locale.ROOT,
                " &middot; %s expected arrivals &middot; seed %d &middot; SLO %.0f ms p95 TTFAB"
                    + " &middot; metric publication delay %.0f s &middot; %s, %s</p>\n",
                grouped(Math.round(a.traffic().expectedArrivals())),
                a.seed(),
                a.sloMs(),
                a.metricPublicationDelayS(),
                Html.esc(a.toolVersion()),
                a.createdAt()));
    h.append("<p>One instance: ")
        .append(
            String.format(
                Locale.ROOT,
                "%d slot(s), %.4g req/s when saturated, queue_max_depth %d, request deadline %.0f"
                    + " s, start-up %.1f s (%s). ",
                m.slots(),
                m.saturatedRps(),
                m.queueMaxDepth(),
                m.requestDeadlineS(),
                m.startupDelayS(),
                Html.esc(m.startupDelaySource())))
        .append("<span class=\"meta\">")
        .append(Html.esc(m.derivation()))
        .append("</span></p>\n<p class=\"meta\">Inputs: ");
    List<String> inputs = new ArrayList<>();
    for (PlanArtifact.SourceFile f : a.inputs()) {
      inputs.add(
          Html.esc(f.kind())
              + " <code>"
              + Html.esc(fileName(f.file()))
              + "</code>"
              + (f.slug() == null ? "" : " (" + Html.esc(f.slug()) + ")"));
    }
    h.append(String.join(" &middot; ", inputs)).append("</p>\n");
  }

  private static void table(StringBuilder h, SimulateArtifact a) {
    Double price = a.pricePerHour();
    boolean cost = price != null;
    h.append("<h2>Policies side by side</h2>\n<table><tr><th class=\"l\">policy</th>")
        .append("<th>arrived</th><th>SLO attained</th><th>shed</th><th>p50 TTFAB</th>")
        .append("<th>p95 TTFAB</th><th>p99 TTFAB</th><th>peak inst.</th><th>mean inst.</th>")
        .append("<th>instance-h</th>")
        .append(price != null ? "<th>cost @ " + plain(price) + "/h</th>" : "")
        .append("<th>out / in</th><th>at max</th></tr>\n");
    for (int i = 0; i < a.policies().size(); i++) {
      SimulateArtifact.PolicySection p = a.policies().get(i);
      h.append(
              "<tr><td class=\"l\" style=\"white-space:nowrap\"><span class=\"swatch\" style=\"background:")
          .append(COLORS[i % COLORS.length])
          .append("\"></span><b>")
          .append(Html.esc(p.name()))
          .append("</b></td>")
          .append(
              String.format(
                  Locale.ROOT,
                  "<td>%s</td><td>%.2f %%</td><td>%.2f %%</td><td>%s</td><td>%s</td><td>%s</td>"
                      + "<td>%d</td><td>%.1f</td><td>%.1f</td>%s<td>%d / %d</td><td>%s</td></tr>\n",
                  grouped(p.arrived()),
                  p.sloAttainmentPct(),
                  p.shedPct(),
                  ms(p.ttfabP50Ms()),
                  ms(p.ttfabP95Ms()),
                  ms(p.ttfabP99Ms()),
                  p.peakInstances(),
                  p.meanInstances(),
                  p.instanceHours(),
                  cost ? String.format(Locale.ROOT, "<td>%.2f</td>", p.cost()) : "",
                  p.scaleOuts(),
                  p.scaleIns(),
                  hours(p.timeAtMaxS())));
    }
    h.append("</table>\n<ul class=\"meta\">");
    for (SimulateArtifact.PolicySection p : a.policies()) {
      h.append("<li><b>")
          .append(Html.esc(p.name()))
          .append("</b>: ")
          .append(Html.esc(p.description()))
          .append("</li>");
    }
    h.append(
        "</ul>\n<p class=\"meta\">SLO attained counts every arrival (a shed request misses);"
            + " percentiles are over served requests. Instance-hours bill starting, in-service and"
            + " draining instances.</p>\n");
  }

  private static void overview(StringBuilder h, SimulateArtifact a) {
    int minutes = minutes(a);
    List<Svg.Line> instances = new ArrayList<>();
    List<Svg.Line> p95 = new ArrayList<>();
    for (int i = 0; i < a.policies().size(); i++) {
      SimulateArtifact.PolicySection p = a.policies().get(i);
      String c = COLORS[i % COLORS.length];
      instances.add(new Svg.Line(p.minutes().meanInService(), c, p.name()));
      p95.add(new Svg.Line(p.minutes().ttfabP95Ms(), c, p.name()));
    }
    h.append("<h2>All policies</h2>\n<div class=\"grid\">")
        .append(Svg.chart("instances in service, mean per minute", "instances", instances, minutes))
        .append(
            Svg.chart(
                "p95 TTFAB per minute",
                "ms",
                p95,
                minutes,
                a.sloMs(),
                "SLO " + plain(a.sloMs()) + " ms"))
        .append("</div>\n");
  }

  private static void policy(
      StringBuilder h, SimulateArtifact a, SimulateArtifact.PolicySection p, String color) {
    int minutes = minutes(a);
    SimulateArtifact.MinuteSeries s = p.minutes();
    h.append("<h2>")
        .append(Html.esc(p.name()))
        .append("</h2>\n<p class=\"meta\">")
        .append(Html.esc(p.description()))
        .append("</p>\n<div class=\"grid\">")
        .append(
            Svg.chart(
                "arrivals per minute",
                "requests",
                List.of(new Svg.Line(s.arrived(), "#4b5563", "arrivals")),
                minutes))
        .append(
            Svg.chart(
                "instances in service (mean and max per minute)",
                "instances",
                List.of(
                    new Svg.Line(s.meanInService(), color, "mean"),
                    new Svg.Line(s.maxInService(), "#9aa3b5", "max")),
                minutes))
        .append(
            Svg.chart(
                "p95 TTFAB per minute",
                "ms",
                List.of(new Svg.Line(s.ttfabP95Ms(), color, "p95")),
                minutes,
                a.sloMs(),
                "SLO"))
        .append(
            Svg.chart(
                "shed per minute",
                "requests",
                List.of(new Svg.Line(s.shed(), "#c0262d", "shed")),
                minutes))
        .append("</div>\n");
    events(h, p);
  }

  private static void events(StringBuilder h, SimulateArtifact.PolicySection p) {
    if (p.events().isEmpty()) {
      h.append("<p class=\"meta\">No scaling decisions.</p>\n");
      return;
    }
    h.append("<details><summary>")
        .append(p.events().size())
        .append(" scaling decisions")
        .append(p.events().size() > EVENTS_SHOWN ? " (the first " + EVENTS_SHOWN + ")" : "")
        .append("</summary><table><tr><th>decided</th><th>from</th><th>to</th>")
        .append("<th>in service</th><th class=\"l\">cause</th></tr>\n");
    for (SimulateArtifact.Event e :
        p.events().subList(0, Math.min(EVENTS_SHOWN, p.events().size()))) {
      h.append(
          String.format(
              Locale.ROOT,
              "<tr><td>%s</td><td>%d</td><td>%d</td><td>%s</td><td class=\"l\">%s</td></tr>\n",
              clock(e.decidedAtS()),
              e.from(),
              e.to(),
              e.inServiceAtS() == null ? "-" : clock(e.inServiceAtS()),
              Html.esc(e.cause())));
    }
    h.append("</table></details>\n");
  }

  private static int minutes(SimulateArtifact a) {
    return (int) Math.max(1, (a.traffic().durationS() + 59) / 60);
  }

  private static String fileName(String file) {
    Path name = Path.of(file).getFileName();
    return name == null ? file : name.toString();
  }

  private static String ms(@Nullable Double v) {
    return v == null ? "-" : String.format(Locale.ROOT, "%.1f ms", v);
  }

  private static String hours(long seconds) {
    return seconds == 0 ? "0" : String.format(Locale.ROOT, "%.2f h", seconds / 3600.0);
  }

  private static String clock(long seconds) {
    return String.format(
        Locale.ROOT, "%d:%02d:%02d", seconds / 3600, (seconds / 60) % 60, seconds % 60);
  }

  private static String plain(double v) {
    return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }

  private static String grouped(long n) {
    return String.format(Locale.ROOT, "%,d", n).replace(',', '\u2009');
  }
}
