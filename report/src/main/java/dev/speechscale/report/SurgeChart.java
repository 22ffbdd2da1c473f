package dev.speechscale.report;

import static dev.speechscale.report.Html.esc;
import static dev.speechscale.report.Html.f;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.capacity.SurgeCurve;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The surge panel: the plan's shed probability against the scale-out threshold C_scale_max, from
 * the curve the plan recorded ({@code surge_curve}), with the shed target, the planned threshold
 * and the recommended one marked. It answers the {@code surge_survival} finding's question in one
 * picture: how much lower must the threshold be before a k× surge stops filling the queue while the
 * next instance starts.
 */
final class SurgeChart {
  private static final int HT = 320;
  private static final Plot.Margins MARGINS = new Plot.Margins(56, 20, 30, 44);
  private static final String CURVE = "#2f5bd3";
  private static final String RECOMMENDED = "#1b7f3b";

  private SurgeChart() {}

  static void html(StringBuilder h, PlanArtifact p) {
    h.append("<h3>Surge survival against the scale-out threshold</h3>\n");
    List<SurgeCurve.Point> curve = p.surgeCurve();
    if (curve == null) {
      h.append("<p class=\"meta\">not recorded: this plan was written before plans recorded")
          .append(" the surge curve; run tts-bench plan again on the same artifacts to draw")
          .append(" it.</p>\n");
      return;
    }
    if (curve.isEmpty()) {
      h.append("<p class=\"meta\">nothing was simulated: the ladder found no Q_max.</p>\n");
      return;
    }
    h.append("<div class=\"chart\">").append(svg(p, curve)).append("</div>\n");
    PlanArtifact.Chosen chosen = p.inputs().chosen();
    h.append("<p class=\"legend\">Each point: the share of ")
        .append(chosen.trials())
        .append(
            esc(
                f(
                    " simulated %.2fx surges that filled one instance's queue to Q_max %d before a"
                        + " new instance was in service (T %.0f s), starting from that threshold.",
                    chosen.surgeRatio(), p.qMax(), p.tTotalS())))
        .append(" <b>planned</b>: the C_scale_max the plan deploys; <b>recommended</b>: the")
        .append(esc(f(" largest threshold whose shed probability is at most %s", pct(target(p)))))
        .append(p.recommendedCScaleMax() == null ? " (none is)" : "")
        .append(".</p>\n");
  }

  private static String svg(PlanArtifact p, List<SurgeCurve.Point> curve) {
    double xMax = Math.max(p.qMax(), curve.getLast().cScaleMax());
    Plot plot =
        new Plot(
            HT,
            MARGINS,
            new Plot.Axis.Linear(0, xMax),
            new Plot.Axis.Linear(0, 1),
            "shed probability against C_scale_max");
    int step = Math.max(1, (int) Math.ceil(xMax / 12));
    for (int c = 0; c <= xMax; c += step) {
      plot.xTick(c, Integer.toString(c));
    }
    for (double v : new double[] {0, 0.25, 0.5, 0.75, 1}) {
      plot.yTick(v, pct(v));
    }
    plot.xTitle("C_scale_max: concurrent requests per instance at which the fleet scales out")
        .yTitle("shed probability under the surge")
        .horizontal(target(p), "#6b7280", "4 3", "target " + pct(target(p)))
        .vertical(p.qMax(), "#9aa3b5", "", "Q_max " + p.qMax(), 16)
        .vertical(
            p.cScaleMax(),
            CURVE,
            "6 4",
            f("planned %.2f: %s", p.cScaleMax(), shed(p.shedProbability())),
            34);
    Double recommended = p.recommendedCScaleMax();
    if (recommended != null) {
      plot.vertical(
          recommended,
          RECOMMENDED,
          "",
          f("recommended %.2f: %s", recommended, shed(at(curve, recommended))),
          52);
    }
    plot.line(
        curve.stream().map(pt -> new double[] {pt.cScaleMax(), pt.shedProbability()}).toList(),
        CURVE,
        2,
        "",
        "shed probability");
    for (SurgeCurve.Point pt : curve) {
      plot.dot(
          pt.cScaleMax(),
          pt.shedProbability(),
          CURVE,
          f("C_scale_max %.2f: shed %s", pt.cScaleMax(), pct(pt.shedProbability())));
    }
    return plot.svg();
  }

  private static double target(PlanArtifact p) {
    return p.inputs().chosen().shedTarget();
  }

  private static @Nullable Double at(List<SurgeCurve.Point> curve, double threshold) {
    return curve.stream()
        .filter(pt -> pt.cScaleMax() == threshold)
        .map(SurgeCurve.Point::shedProbability)
        .findFirst()
        .orElse(null);
  }

  private static String shed(@Nullable Double p) {
    return p == null ? "shed n/a" : "shed " + pct(p);
  }

  /** A probability as a percentage, whole unless below 1 %. */
  static String pct(double p) {
    double v = 100 * p;
    return v > 0 && v < 1 ? f("%.1f %%", v) : f("%.0f %%", v);
  }
}
