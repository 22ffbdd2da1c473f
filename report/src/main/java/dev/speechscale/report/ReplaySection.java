package dev.speechscale.report;

import static dev.speechscale.report.Html.f;

import dev.speechscale.artifacts.FleetFigures;
import dev.speechscale.artifacts.ReplayArtifact;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The report's "simulator against the live fleet" section: the replay's predicted and measured
 * figures side by side (a table with each error and its target), instances in service per second
 * (both lines on one chart) and p95 TTFAB per minute (paired bars).
 */
final class ReplaySection {
  private static final String PREDICTED = "#3b6fd8";
  private static final String MEASURED = "#d8743b";

  /** Both charts' width and margins, in SVG units; only their heights differ. */
  private static final int LEFT = 60;

  private static final int RIGHT = 20;
  private static final int TOP = 36;
  private static final int BOTTOM = 36;

  private ReplaySection() {}

  /** The section for a replay that ran. */
  static void html(StringBuilder h, ReplayArtifact r) {
    h.append("<h2>Simulator against the live fleet (replay)</h2>\n<p class=\"meta\">")
        .append(Html.esc(r.traffic()))
        .append(f(", seed %d; ", r.seed()))
        .append(
            f(
                "%d arrivals predicted, %d sent live",
                r.predicted().arrivals(), r.measured().arrivals()))
        .append(f("; %d late sends. ", r.live().lateSends()))
        .append("The prediction is the simulator run on this page's qmax and ttotal artifacts and")
        .append(" the rules deployed on the endpoint; the live run sent the same arrivals.</p>\n");
    for (String line : ReplayTable.startLines(r)) {
      h.append("<p class=\"meta\">").append(Html.esc(line)).append("</p>\n");
    }
    h.append("<p>verdict ").append(verdict(r)).append("</p>\n");
    h.append(
        "<table><tr><th>figure</th><th>predicted</th><th>measured</th><th>error</th>"
            + "<th>target</th><th>result</th></tr>");
    for (ReplayArtifact.Row row : r.comparison()) {
      h.append("<tr><td>")
          .append(Html.esc(label(row)))
          .append("</td><td class=\"n\">")
          .append(value(row.figure(), row.predicted()))
          .append("</td><td class=\"n\">")
          .append(value(row.figure(), row.measured()))
          .append("</td><td class=\"n\">")
          .append(
              row.error() == null
                  ? "\u2013"
                  : ReplayTable.signed(row.error())
                      + " "
                      + (row.errorUnit() == null ? "" : row.errorUnit()))
          .append("</td><td class=\"n\">")
          .append(
              row.tolerance() == null
                  ? "\u2013"
                  : f(
                      "&plusmn;%.0f %s",
                      row.tolerance(), row.errorUnit() == null ? "" : row.errorUnit()))
          .append("</td><td>")
          .append(result(row))
          .append("</td></tr>");
    }
    h.append("</table>\n");
    instances(h, r.predicted(), r.measured());
    p95(h, r.predicted(), r.measured());
    h.append("<p class=\"meta\">scaling predicted: ")
        .append(Html.esc(events(r.predictedEvents())))
        .append("<br>scaling measured: ")
        .append(Html.esc(events(r.measuredEvents())))
        .append("<br>instance model: ")
        .append(Html.esc(r.physics().instanceModel()))
        .append("</p>\n");
  }

  /** The replay's verdict in a span: ok when within every target, warn otherwise. */
  static String verdict(ReplayArtifact r) {
    return "<span class=\""
        + (r.verdict().within() ? "ok" : "warn")
        + "\">"
        + Html.esc(r.verdict().label())
        + "</span>";
  }

  /** The section when the replay could not run: why, and nothing else. */
  static void skipped(StringBuilder h, String why) {
    h.append("<h2>Simulator against the live fleet (replay)</h2>\n<p class=\"warn\">not run: ")
        .append(Html.esc(why))
        .append("</p>\n");
  }

  private static void instances(StringBuilder h, FleetFigures p, FleetFigures m) {
    List<Integer> a = p.inServicePerSecond();
    List<Integer> b = m.inServicePerSecond();
    int n = Math.max(a.size(), b.size());
    if (n == 0) {
      return;
    }
    int maxY = 1;
    for (int v : a) {
      maxY = Math.max(maxY, v);
    }
    for (int v : b) {
      maxY = Math.max(maxY, v);
    }
    int ht = 216;
    double px = (Plot.WIDTH - LEFT - RIGHT) / (double) n;
    double py = (ht - TOP - BOTTOM) / (maxY + 0.5);
    open(h, ht, "instances in service per second, predicted and measured");
    for (int y = 0; y <= maxY; y++) {
      double yy = ht - BOTTOM - y * py;
      h.append(
          f(
              "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">%d</text>",
              LEFT - 6, yy + 4, y));
    }
    for (int s = 0; s <= n; s += 30) {
      h.append(
          f(
              "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%d s</text>",
              LEFT + s * px, ht - BOTTOM + 16, s));
    }
    h.append(step(a, LEFT, ht - BOTTOM, px, py, PREDICTED, 0));
    h.append(step(b, LEFT, ht - BOTTOM, px, py, MEASURED, 2));
    legend(h, LEFT + 10, 6, "instances in service: predicted", "measured");
    h.append("</svg></div>\n");
  }

  private static void p95(StringBuilder h, FleetFigures p, FleetFigures m) {
    int n = Math.max(p.minutes().size(), m.minutes().size());
    if (n == 0) {
      return;
    }
    double maxY = 1;
    for (int i = 0; i < n; i++) {
      maxY = Math.max(maxY, p95(p, i));
      maxY = Math.max(maxY, p95(m, i));
    }
    maxY *= 1.1;
    int ht = 256;
    double slot = (Plot.WIDTH - LEFT - RIGHT) / (double) n;
    double bar = Math.min(60, slot * 0.35);
    double py = (ht - TOP - BOTTOM) / maxY;
    open(h, ht, "p95 TTFAB per minute, predicted and measured");
    for (int i = 0; i < n; i++) {
      double x = LEFT + i * slot + slot / 2;
      bar(h, x - bar, ht - BOTTOM, bar, p95(p, i) * py, PREDICTED, p95(p, i));
      bar(h, x, ht - BOTTOM, bar, p95(m, i) * py, MEASURED, p95(m, i));
      h.append(
          f(
              "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">minute %d</text>",
              x, ht - BOTTOM + 16, i));
    }
    legend(h, LEFT + 10, 6, "p95 TTFAB per minute: predicted", "measured");
    h.append("</svg></div>\n");
  }

  private static double p95(FleetFigures f, int minute) {
    return f.minutes().stream()
        .filter(x -> x.index() == minute && x.p95TtfabMs() != null)
        .mapToDouble(FleetFigures.Minute::p95TtfabMs)
        .findFirst()
        .orElse(0);
  }

  private static void bar(
      StringBuilder h, double x, double base, double width, double height, String color, double v) {
    h.append(
        f(
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>",
            x, base - height, width, height, color));
    if (v > 0) {
      h.append(
          f(
              "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%.0f ms</text>",
              x + width / 2, base - height - 4, v));
    }
  }

  private static String step(
      List<Integer> v, int left, int base, double px, double py, String color, double offset) {
    StringBuilder d = new StringBuilder();
    for (int s = 0; s < v.size(); s++) {
      double y = base - v.get(s) * py - offset;
      d.append(s == 0 ? "M" : "L").append(f("%.1f %.1f", left + s * px, y));
      d.append(f("L%.1f %.1f", left + (s + 1) * px, y));
    }
    return f(
        "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\"/>", d.toString(), color);
  }

  /** Opens a chart {@code ht} high, labelled {@code label}, with its two axes drawn. */
  private static void open(StringBuilder h, int ht, String label) {
    h.append(
        f(
            "<div class=\"chart\"><svg viewBox=\"0 0 %d %d\" width=\"100%%\" role=\"img\""
                + " aria-label=\"%s\">",
            Plot.WIDTH, ht, label));
    h.append(
        f(
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#8a93a6\"/>",
            LEFT, ht - BOTTOM, Plot.WIDTH - RIGHT, ht - BOTTOM));
    h.append(
        f(
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#8a93a6\"/>",
            LEFT, TOP, LEFT, ht - BOTTOM));
  }

  private static void legend(StringBuilder h, int x, int y, String first, String second) {
    h.append(
        f("<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", x, y, PREDICTED));
    h.append(
        f("<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>", x + 16, y + 11, Html.esc(first)));
    int x2 = x + 22 + first.length() * 7;
    h.append(
        f("<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", x2, y, MEASURED));
    h.append(
        f("<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>", x2 + 16, y + 11, Html.esc(second)));
  }

  private static String label(ReplayArtifact.Row r) {
    String base =
        switch (r.figure()) {
          case "shed_fraction" -> "shed fraction";
          case "surge_to_in_service_s" -> "surge to the next instance in service";
          case "p95_ttfab_ms" -> "p95 TTFAB";
          case "mean_in_service" -> "instances in service (mean)";
          default -> r.figure();
        };
    return r.minute() == null ? base : base + ", minute " + r.minute();
  }

  private static String value(String figure, @Nullable Double v) {
    if (v == null) {
      return "\u2013";
    }
    return switch (figure) {
      case "shed_fraction" -> f("%.2f %%", v);
      case "surge_to_in_service_s" -> f("%.1f s", v);
      case "p95_ttfab_ms" -> f("%.0f ms", v);
      default -> f("%.2f", v);
    };
  }

  private static String result(ReplayArtifact.Row r) {
    String cls =
        switch (r.result()) {
          case WITHIN -> "ok";
          case MISS -> "fail";
          case UNRESOLVED -> "warn";
          case NOT_JUDGED -> "suppressed";
        };
    String text = r.result().label().replace('_', ' ');
    return "<span class=\""
        + cls
        + "\">"
        + Html.esc(text)
        + "</span>"
        + (r.note() == null ? "" : " <span class=\"meta\">" + Html.esc(r.note()) + "</span>");
  }

  private static String events(List<ReplayArtifact.Event> events) {
    if (events.isEmpty()) {
      return "none";
    }
    StringBuilder b = new StringBuilder();
    for (ReplayArtifact.Event e : events) {
      b.append(b.isEmpty() ? "" : ", ")
          .append(f("%s %d\u2192%d at %.1f s", e.what(), e.from(), e.to(), e.atS()));
    }
    return b.toString();
  }
}
