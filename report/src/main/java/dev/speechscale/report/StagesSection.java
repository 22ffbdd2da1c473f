package dev.speechscale.report;

import static dev.speechscale.report.Html.esc;
import static dev.speechscale.report.Html.escText;
import static dev.speechscale.report.Html.f;

import dev.speechscale.artifacts.NewInstanceService;
import dev.speechscale.artifacts.TtotalArtifact;

/**
 * The report's T_total waterfall: consecutive stages as bars from desired_set (bounded ones
 * lighter), then the policy-lag bound, the total, and the artifact's notes.
 */
final class StagesSection {
  private static final int ROW = 28;
  private static final int LEFT = 320;

  private StagesSection() {}

  /** Seconds to pixels, and the total every bar's share is of. */
  private record Scale(double px, double total) {}

  static void html(StringBuilder h, TtotalArtifact t) {
    h.append("<h2>Scale-out stages (T_total)</h2>\n");
    double total =
        java.util.Objects.requireNonNullElse(
            t.tTotalWithPolicyBoundS(), t.tTotalS() + t.policyLagBoundS());
    int ht = (t.durations().size() + 2) * ROW + 30;
    // 120 px keeps the last label inside
    Scale scale = new Scale((Plot.WIDTH - LEFT - 120) / Math.max(total, 1e-9), total);
    h.append(
        f(
            "<div class=\"chart\"><svg viewBox=\"0 0 %d %d\" width=\"100%%\" role=\"img\" aria-label=\"scale-out"
                + " waterfall\">",
            Plot.WIDTH, ht));
    double at = 0;
    int y = 10;
    for (TtotalArtifact.StageDuration s : t.durations()) {
      String color = Boolean.TRUE.equals(s.bounded()) ? "#8aa4e8" : "#2f5bd3";
      bar(h, scale, y, at, s.seconds(), s.from() + " → " + s.to(), color);
      at += s.seconds();
      y += ROW;
    }
    bar(h, scale, y, at, t.policyLagBoundS(), "policy detection lag (bounded)", "#b0b7c6");
    y += ROW;
    h.append(
        f(
            "<text x=\"%d\" y=\"%d\" font-size=\"13\" font-weight=\"700\">T = %.1f s"
                + " measured + %.1f s bound = %.1f s</text>",
            10, y + 18, t.tTotalS(), t.policyLagBoundS(), total));
    h.append("</svg></div>\n");
    if (!t.notes().isEmpty()) {
      h.append("<ul class=\"meta\">");
      t.notes().forEach(n -> h.append("<li>").append(escText(n)).append("</li>"));
      h.append("</ul>\n");
    }
    NewInstanceService fresh = t.newInstance();
    if (fresh != null) {
      newInstance(h, fresh);
    }
  }

  /** The new instance against the old one per window since in service, and what the model takes. */
  private static void newInstance(StringBuilder h, NewInstanceService n) {
    h.append("<h3>The new instance against the old one</h3>\n");
    if (!n.measured()) {
      h.append("<p class=\"meta\">").append(escText(n.summary())).append("</p>\n");
      return;
    }
    boolean hosts = n.windows().stream().anyMatch(w -> w.hostRatio() != null);
    h.append(
        "<table><tr><th>seconds in service</th><th>requests new / old</th>"
            + "<th>service ms new / old</th>"
            + (hosts
                ? "<th>host probe time new / old</th><th>new / old, hosts divided out</th>"
                : "")
            + (hosts ? "" : "<th>new / old</th>")
            + "</tr>");
    for (NewInstanceService.Window w : n.windows()) {
      h.append(
          f(
              "<tr><td>%.0f–%.0f</td><td>%d / %d</td><td>%s / %s</td>%s<td>%s</td></tr>",
              w.fromS(),
              w.untilS(),
              w.newRequests(),
              w.oldRequests(),
              w.newServiceMs() == null ? "–" : f("%.1f", w.newServiceMs()),
              w.oldServiceMs() == null ? "–" : f("%.1f", w.oldServiceMs()),
              !hosts
                  ? ""
                  : "<td>" + (w.hostRatio() == null ? "–" : f("×%.2f", w.hostRatio())) + "</td>",
              w.factor() == null ? "–" : f("×%.2f", w.factor())));
    }
    h.append("</table>\n<p class=\"meta\">")
        .append(
            escText(
                "simulate and replay: "
                    + n.coldStartDescription("this scale-out")
                    + "; simulate's first instances are warm, replay's one (deployed for it)"
                    + " goes on along this from the requests its warm-up served"))
        .append("</p>\n");
  }

  private static void bar(
      StringBuilder h, Scale s, int y, double at, double seconds, String label, String color) {
    h.append(
        f(
            "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">%s</text>",
            LEFT - 8, y + 15, esc(label)));
    h.append(
        f(
            "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"18\" fill=\"%s\" rx=\"2\"/>",
            LEFT + at * s.px(), y + 2, Math.max(1.5, seconds * s.px()), color));
    h.append(
        f(
            "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" fill=\"#1d2330\">%.2f s (%.0f%%)"
                + "</text>",
            LEFT + (at + seconds) * s.px() + 6, y + 15, seconds, 100 * seconds / s.total()));
  }
}
