package dev.speechscale.report;

import static dev.speechscale.report.Html.esc;
import static dev.speechscale.report.Html.f;

import java.util.ArrayList;
import java.util.List;

/**
 * The report's policy-search section: the frontier of instance-hours against SLO attainment (the
 * fitted trace, screened) with every candidate and the rivals placed on it and the chosen policy
 * marked, then the held-out day in full. The replay section below drives the chosen policy.
 */
final class SearchSection {
  private static final int HT = 320;
  private static final Plot.Margins MARGINS = new Plot.Margins(64, 20, 30, 44);
  private static final String FRONTIER = "#2f5bd3";
  private static final String CANDIDATE = "#9aa3b5";
  private static final String RIVAL = "#b06a00";
  private static final String CHOSEN = "#1b7f3b";

  private SearchSection() {}

  /**
   * The section.
   *
   * @param replay the report's replay, or {@code null}: whether it drove the chosen policy is said
   */
  static void html(
      StringBuilder h,
      SearchView s,
      dev.speechscale.artifacts.@org.jspecify.annotations.Nullable ReplayArtifact replay) {
    h.append("<h2>Policy search on this fleet</h2>\n<p class=\"meta\">goal ")
        .append(esc(s.goal()))
        .append("; fitted on ")
        .append(esc(s.trace()))
        .append(f("; %d candidates screened. ", s.candidates().size()))
        .append("Chosen: <b>")
        .append(esc(s.recommended()))
        .append("</b>")
        .append(s.meetsGoal() ? " (meets the goal in full on the fitted trace)" : "")
        .append(s.meetsGoal() ? "" : " (<span class=\"warn\">no candidate met the goal</span>:")
        .append(s.meetsGoal() ? "" : " the closest)")
        .append(", deployed from <code>")
        .append(esc(s.planFile()))
        .append("</code>")
        .append(
            replay == null
                ? ", not replayed: "
                : s.replayed(replay)
                    ? " and driven live by the replay below: "
                    : " (<span class=\"warn\">the replay below drove another policy</span>,"
                        + f(" target %.3f): ", replay.physics().targetValue()))
        .append(esc(s.policy()))
        .append("</p>\n");
    h.append("<div class=\"chart\">").append(svg(s)).append("</div>\n");
    h.append("<p class=\"legend\">Each point: one policy simulated on the fitted trace.")
        .append(" <b style=\"color:")
        .append(FRONTIER)
        .append("\">frontier</b>: the cheapest deployable policy for each attainment;")
        .append(" <b style=\"color:")
        .append(CANDIDATE)
        .append("\">grey</b>: the candidates; <b style=\"color:")
        .append(RIVAL)
        .append("\">orange</b>: the rivals (plan, naive, invocations, cpu); <b style=\"color:")
        .append(CHOSEN)
        .append("\">green</b>: the chosen policy.</p>\n");
    h.append("<h3>Held-out trace (full simulation)</h3>\n")
        .append("<table><tr><th>policy</th><th>deployable</th><th>SLO ok</th><th>shed</th>")
        .append("<th>p95 TTFAB</th><th>instance-hours</th><th>out/in</th></tr>");
    for (SearchView.Row r : s.heldOut()) {
      h.append("<tr><td>")
          .append(esc(r.name()))
          .append(r.name().equals(s.recommended()) ? " (chosen)" : "")
          .append("</td><td>")
          .append(r.deployable() ? "yes" : "no")
          .append("</td><td class=\"n\">")
          .append(esc(f("%.3f %%", 100 * r.attainment())))
          .append("</td><td class=\"n\">")
          .append(esc(f("%.3f %%", 100 * r.shed())))
          .append("</td><td class=\"n\">")
          .append(Double.isNaN(r.p95Ms()) ? "n/a" : esc(Html.millis(r.p95Ms())))
          .append("</td><td class=\"n\">")
          .append(esc(f("%.2f", r.instanceHours())))
          .append("</td><td class=\"n\">")
          .append(r.scaleOuts())
          .append('/')
          .append(r.scaleIns())
          .append("</td></tr>");
    }
    h.append("</table>\n");
  }

  private static String svg(SearchView s) {
    List<SearchView.Point> all = new ArrayList<>(s.candidates());
    all.addAll(s.rivals());
    double xMax = 0;
    double yMin = 1;
    for (SearchView.Point p : all) {
      xMax = Math.max(xMax, p.instanceHours());
      yMin = Math.min(yMin, p.attainment());
    }
    xMax = Svg.niceCeiling(Math.max(xMax * 1.05, 1e-3));
    double yLo = Math.max(0, Math.floor((yMin - 0.01) * 20) / 20);
    Plot plot =
        new Plot(
            HT,
            MARGINS,
            new Plot.Axis.Linear(0, xMax),
            new Plot.Axis.Linear(yLo, 1),
            "instance-hours against SLO attainment");
    for (int i = 0; i <= 5; i++) {
      double v = xMax * i / 5;
      plot.xTick(v, Svg.number(v));
    }
    for (int i = 0; i <= 5; i++) {
      double v = yLo + (1 - yLo) * i / 5;
      plot.yTick(v, f("%.1f %%", 100 * v));
    }
    plot.xTitle("instance-hours on the fitted trace (screened)").yTitle("arrivals within the SLO");
    List<double[]> steps = new ArrayList<>();
    for (SearchView.Point p : s.frontier()) {
      if (!steps.isEmpty()) {
        steps.add(new double[] {p.instanceHours(), steps.getLast()[1]});
      }
      steps.add(new double[] {p.instanceHours(), p.attainment()});
    }
    if (!steps.isEmpty()) {
      steps.add(new double[] {xMax, steps.getLast()[1]});
    }
    plot.line(steps, FRONTIER, 2, "", "the frontier: cheapest deployable policy per attainment");
    for (SearchView.Point p : s.candidates()) {
      if (!p.name().equals(s.recommended())) {
        plot.dot(p.instanceHours(), p.attainment(), CANDIDATE, tip(p));
      }
    }
    int k = 0;
    for (SearchView.Point p : s.rivals()) {
      plot.dot(p.instanceHours(), p.attainment(), RIVAL, tip(p));
      // staggered so rivals at nearly the same point stay legible
      plot.text(
          plot.px(p.instanceHours()) + 6,
          plot.py(p.attainment()) - 6 + 15 * (k++ % 3),
          RIVAL,
          p.name() + (notDeployable(s, p.name()) ? " (not deployable)" : ""));
    }
    for (SearchView.Point p : s.candidates()) {
      if (p.name().equals(s.recommended())) {
        plot.dot(p.instanceHours(), p.attainment(), CHOSEN, tip(p));
        plot.text(
            plot.px(p.instanceHours()) + 6,
            plot.py(p.attainment()) + 14,
            CHOSEN,
            p.name() + " (chosen)");
      }
    }
    return plot.svg();
  }

  private static boolean notDeployable(SearchView s, String name) {
    return s.heldOut().stream().anyMatch(r -> r.name().equals(name) && !r.deployable());
  }

  private static String tip(SearchView.Point p) {
    return f(
        "%s: %.2f instance-hours, %.3f %% within the SLO",
        p.name(), p.instanceHours(), 100 * p.attainment());
  }
}
