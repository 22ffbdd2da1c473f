package dev.speechscale.report;

import static dev.speechscale.report.Html.f;

import dev.speechscale.artifacts.LatencyCdf;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Each rung's TTFAB distribution as one line, read from the histogram the ladder stored for it (the
 * whole distribution, not a few percentiles): TTFAB on a logarithmic axis (the rungs span two
 * orders of magnitude, from one request alone to a saturated queue) against the share of requests
 * at or below it. The SLO is a vertical line and 95 % a horizontal one, so a rung whose line
 * crosses 95 % right of the SLO breached it. Lines run from light (few requests held) to dark,
 * sorted by N; the legend to the right names each with its p95.
 */
final class CdfChart {
  private static final int HT = 400;
  private static final int LEGEND = 170;
  private static final Plot.Margins MARGINS = new Plot.Margins(56, LEGEND, 28, 44);

  /** Viridis from 0.8 down to 0: light green for N=1, deep purple for the highest rung. */
  private static final int[][] RAMP = {
    {0x7a, 0xd1, 0x51},
    {0x22, 0xa8, 0x84},
    {0x2a, 0x78, 0x8e},
    {0x41, 0x44, 0x87},
    {0x44, 0x01, 0x54}
  };

  private CdfChart() {}

  /** A rung with its distribution. */
  private record Curve(QmaxStep step, LatencyCdf cdf) {}

  /**
   * The chart and its caption for {@code q}; a sentence instead when no rung stored a histogram.
   */
  static void html(StringBuilder h, QmaxArtifact q) {
    h.append("<h3>TTFAB distribution per rung</h3>\n");
    List<Curve> curves = curves(q);
    if (curves.isEmpty()) {
      h.append("<p class=\"meta\">not recorded: no rung of this ladder stored a TTFAB histogram")
          .append(" with requests in it.</p>\n");
      return;
    }
    h.append("<div class=\"chart\">").append(svg(curves, q.sloMs())).append("</div>\n");
    long without = q.steps().size() - curves.size();
    h.append("<p class=\"legend\">One line per rung, from its recorded TTFAB histogram: read")
        .append(" across at 95 % to find a rung's p95; a line that crosses 95 % right of the red")
        .append(" SLO line breached it. The time axis is logarithmic. Dashed lines are rungs")
        .append(" that could not be used.")
        .append(without > 0 ? f(" %d rung(s) stored no histogram and are not drawn.", without) : "")
        .append("</p>\n");
  }

  /** The drawable rungs, by N then run. */
  private static List<Curve> curves(QmaxArtifact q) {
    List<Curve> out = new ArrayList<>();
    q.steps().stream()
        .sorted(Comparator.comparingInt(QmaxStep::concurrency).thenComparingInt(QmaxStep::run))
        .filter(s -> s.ttfabHistogram() != null && !s.ttfabHistogram().isEmpty())
        .forEach(s -> {
          LatencyCdf cdf = LatencyCdf.ofMicros(s.ttfabHistogram());
          if (cdf.count() > 0) {
            out.add(new Curve(s, cdf));
          }
        });
    return out;
  }

  private static String svg(List<Curve> curves, double sloMs) {
    double min = sloMs;
    double max = sloMs;
    for (Curve c : curves) {
      // the 2 % point: the fastest single request would stretch the axis for nothing
      min = Math.min(min, Math.max(0.01, c.cdf().points().get(1).valueMs()));
      max = Math.max(max, c.cdf().points().getLast().valueMs());
    }
    double lo = Plot.niceBelow(min);
    double hi = Plot.niceAbove(max);
    Plot p =
        new Plot(
            HT,
            MARGINS,
            new Plot.Axis.Log(lo, hi),
            new Plot.Axis.Linear(0, 1),
            "TTFAB distribution per rung");
    for (double v : Plot.logTicks(lo, hi)) {
      p.xTick(v, Html.millis(v));
    }
    for (double v : new double[] {0, 0.25, 0.5, 0.75, 1}) {
      p.yTick(v, f("%.0f %%", 100 * v));
    }
    p.xTitle("TTFAB, from the intended send to the first audio byte (log scale)")
        .yTitle("share of requests at or below")
        .horizontal(0.95, "#6b7280", "4 3", "95 %", true)
        .vertical(sloMs, "#c0262d", "6 4", "SLO " + Html.millis(sloMs), -6);
    boolean runs = curves.stream().anyMatch(c -> c.step().run() > 0);
    double rowH = Math.min(18, (HT - MARGINS.top() - 10) / (double) curves.size());
    double legendX = Plot.WIDTH - LEGEND + 14;
    for (int i = 0; i < curves.size(); i++) {
      Curve c = curves.get(i);
      String color = color(i, curves.size());
      String dash = c.step().isUsable() ? "" : "5 3";
      String name = "N=" + c.step().concurrency() + (runs ? " run " + (c.step().run() + 1) : "");
      List<double[]> points = new ArrayList<>();
      c.cdf().points().forEach(pt -> points.add(new double[] {pt.valueMs(), pt.fraction()}));
      p.line(
          points,
          color,
          2,
          dash,
          f("rung %s: %d requests, p95 %s", name, c.cdf().count(), p95(c.step())));
      double y = MARGINS.top() + 6 + i * rowH;
      p.swatch(legendX, y, color, dash)
          .text(legendX + 24, y + 4, "#1d2330", name)
          .text(legendX + 96, y + 4, "#1d2330", p95(c));
    }
    p.text(legendX + 24, MARGINS.top() - 8, Plot.INK, "rung")
        .text(legendX + 96, MARGINS.top() - 8, Plot.INK, "p95");
    return p.svg();
  }

  private static String p95(Curve c) {
    return p95(c.step());
  }

  private static String p95(QmaxStep s) {
    return s.ttfabP95Ms() == null ? "\u2013" : Html.millis(s.ttfabP95Ms());
  }

  /** The {@code i}-th of {@code n} colours along {@link #RAMP}. */
  static String color(int i, int n) {
    double at = n <= 1 ? 0 : (RAMP.length - 1) * i / (double) (n - 1);
    int k = Math.min(RAMP.length - 2, (int) Math.floor(at));
    double t = at - k;
    int[] a = RAMP[k];
    int[] b = RAMP[k + 1];
    return f(
        "#%02x%02x%02x",
        Math.round(a[0] + t * (b[0] - a[0])),
        Math.round(a[1] + t * (b[1] - a[1])),
        Math.round(a[2] + t * (b[2] - a[2])));
  }
}
