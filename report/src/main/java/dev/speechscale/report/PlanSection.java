package dev.speechscale.report;

import static dev.speechscale.report.Html.esc;
import static dev.speechscale.report.Html.escText;
import static dev.speechscale.report.Html.f;
import static dev.speechscale.report.Html.num;
import static dev.speechscale.report.Html.num3;
import static dev.speechscale.report.Html.verdictRow;

import dev.speechscale.artifacts.PlanArtifact;

/**
 * The report's plan: its numbers, the cost when priced, the surge curve ({@link SurgeChart}), the
 * findings, the config block.
 */
final class PlanSection {
  private PlanSection() {}

  static void html(StringBuilder h, PlanArtifact p) {
    h.append("<h2>Plan</h2>\n<table>");
    row(h, "verdict", Html.verdict(p.verdict().label()));
    row(
        h,
        "thresholds",
        esc(
            f(
                "C_scale_max %.2f, C_scale_min %.2f; deployed target %s, scale-in %s",
                p.cScaleMax(),
                p.cScaleMin(),
                num3(p.scalingTargetValue()),
                num3(p.scaleInThreshold()))));
    row(
        h,
        "fleet",
        esc(
            f(
                "%d .. %d instances (N_safe %s)",
                p.minInstances(),
                p.maxInstances(),
                p.minSafeInstances() == null ? "none" : p.minSafeInstances().toString())));
    row(h, "cooldowns", esc(p.scaleOutCooldownS() + " s out, " + p.scaleInCooldownS() + " s in"));
    row(h, "queue_max_depth", Integer.toString(p.queueMaxDepth()));
    row(h, "W_max", esc(f("%.3f s", p.wMaxS())));
    row(
        h,
        "surge",
        esc(
            f(
                "shed probability %s, recommended_c_scale_max %s",
                p.shedProbability() == null ? "n/a" : f("%.1f%%", 100 * p.shedProbability()),
                num(p.recommendedCScaleMax()))));
    if (p.cost() != null) {
      row(h, "cost at trough", esc(p.cost().describeTrough()));
      row(h, "cost at peak", esc(p.cost().describePeak()));
      for (String omitted : p.cost().omitted()) {
        row(h, "cost not shown", esc(omitted));
      }
    }
    h.append("</table>\n");
    SurgeChart.html(h, p);
    findings(h, p);
    h.append("<h3>Deployable endpoint configuration</h3><pre>")
        .append(esc(p.configBlock()))
        .append("</pre>\n");
  }

  private static void findings(StringBuilder h, PlanArtifact p) {
    h.append("<h3>Findings</h3><table><tr><th>finding</th><th>verdict</th>")
        .append("<th>detail</th></tr>");
    for (PlanArtifact.FindingEntry e : p.findings()) {
      verdictRow(h, e.name(), e.verdict().label()).append(escText(e.detail()));
      if (e.recommendation() != null) {
        h.append("<br><em>&rarr; ").append(esc(e.recommendation())).append("</em>");
      }
      h.append("</td></tr>");
    }
    h.append("</table>\n");
  }

  private static void row(StringBuilder h, String name, String html) {
    h.append("<tr><th>").append(esc(name)).append("</th><td>").append(html).append("</td></tr>");
  }
}
