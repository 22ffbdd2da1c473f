package dev.speechscale.report;

import static dev.speechscale.report.Html.esc;
import static dev.speechscale.report.Html.f;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * p95 TTFAB against concurrency as inline SVG: one line per ladder run, the SLO as a dashed red
 * line, Q_max (green) and C_scale_max (blue) marked, breaching rungs red, unusable ones hollow.
 * Concurrency is the x axis here, so {@link Svg}'s charts over minutes do not fit it.
 */
final class LadderChart {
  private static final int HT = 360;
  private static final Plot.Margins MARGINS = new Plot.Margins(70, 20, 20, 40);
  private static final String[] RUN_COLORS = {"#2f5bd3", "#7b3fb8", "#0f8b8d"};

  private LadderChart() {}

  /** Pixels per unit of concurrency ({@code px}) and per millisecond ({@code py}). */
  private record Scale(double px, double py) {
    double x(double n) {
      return MARGINS.left() + n * px;
    }

    double y(double ms) {
      return HT - MARGINS.bottom() - ms * py;
    }
  }

  static void svg(StringBuilder h, QmaxArtifact q, @Nullable PlanArtifact plan) {
    List<QmaxStep> steps = q.steps().stream().filter(s -> s.ttfabP95Ms() != null).toList();
    double maxN = steps.stream().mapToInt(QmaxStep::concurrency).max().orElse(1);
    double maxY =
        Math.max(
            q.sloMs() * 1.15,
            steps.stream().mapToDouble(QmaxStep::ttfabP95Ms).max().orElse(q.sloMs()) * 1.05);
    Scale s =
        new Scale(
            (Plot.WIDTH - MARGINS.left() - MARGINS.right()) / maxN,
            (HT - MARGINS.top() - MARGINS.bottom()) / maxY);
    h.append(
        f(
            "<div class=\"chart\"><svg viewBox=\"0 0 %d %d\" width=\"100%%\" role=\"img\" aria-label=\"p95 TTFAB"
                + " against concurrency\">",
            Plot.WIDTH, HT));
    h.append(
        f(
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fbfcfe\""
                + " stroke=\"#d5dbe6\"/>",
            MARGINS.left(),
            MARGINS.top(),
            Plot.WIDTH - MARGINS.left() - MARGINS.right(),
            HT - MARGINS.top() - MARGINS.bottom()));
    axes(h, s, maxN, maxY);
    markers(h, s, q, plan);
    Map<Integer, List<QmaxStep>> runs = new TreeMap<>();
    steps.forEach(step -> runs.computeIfAbsent(step.run(), k -> new ArrayList<>()).add(step));
    for (Map.Entry<Integer, List<QmaxStep>> run : runs.entrySet()) {
      List<QmaxStep> ordered =
          run.getValue().stream().sorted(Comparator.comparingInt(QmaxStep::concurrency)).toList();
      run(h, s, q.sloMs(), ordered, RUN_COLORS[run.getKey() % RUN_COLORS.length]);
    }
    h.append("</svg></div>\n");
  }

  /** Horizontal grid lines with their milliseconds, the N ticks, the x axis's label. */
  private static void axes(StringBuilder h, Scale s, double maxN, double maxY) {
    for (int i = 0; i <= 4; i++) {
      double v = maxY * i / 4;
      double y = s.y(v);
      h.append(
          f(
              "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e7ef\"/>",
              MARGINS.left(), Plot.WIDTH - MARGINS.right(), y, y));
      h.append(
          f(
              "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\""
                  + " fill=\"#5b6478\">%.0f ms</text>",
              MARGINS.left() - 6, y + 4, v));
    }
    for (int n : xTicks((int) maxN)) {
      h.append(
          f(
              "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\""
                  + " fill=\"#5b6478\">%d</text>",
              s.x(n), HT - MARGINS.bottom() + 18, n));
    }
    h.append(
        f(
            "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\""
                + " fill=\"#5b6478\">concurrency N (requests held open)</text>",
            (Plot.WIDTH + MARGINS.left()) / 2, HT - 4));
  }

  /** The SLO line, and the Q_max and C_scale_max verticals when there are such values. */
  private static void markers(
      StringBuilder h, Scale s, QmaxArtifact q, @Nullable PlanArtifact plan) {
    double sloY = s.y(q.sloMs());
    h.append(
        f(
            "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#c0262d\""
                + " stroke-dasharray=\"6 4\" stroke-width=\"2\"/>",
            MARGINS.left(), Plot.WIDTH - MARGINS.right(), sloY, sloY));
    h.append(
        f(
            "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\" fill=\"#c0262d\">"
                + "SLO %.0f ms</text>",
            Plot.WIDTH - MARGINS.right() - 4, sloY - 6, q.sloMs()));
    if (q.qMax() != null && q.qMax() > 0) {
      vertical(
          h,
          s.x(q.qMax()),
          "stroke=\"#1b7f3b\" stroke-width=\"2\"",
          MARGINS.top() + 16,
          "font-size=\"13\" fill=\"#1b7f3b\" font-weight=\"700\"",
          "Q_max " + q.qMax());
    }
    if (plan != null && plan.cScaleMax() > 0) {
      vertical(
          h,
          s.x(plan.cScaleMax()),
          "stroke=\"#2f5bd3\" stroke-dasharray=\"3 3\"",
          MARGINS.top() + 32,
          "font-size=\"12\" fill=\"#2f5bd3\"",
          f("C_scale_max %.1f", plan.cScaleMax()));
    }
  }

  /** A vertical line across the plot at {@code x}, its label to the right at {@code labelY}. */
  private static void vertical(
      StringBuilder h, double x, String lineStyle, int labelY, String textStyle, String label) {
    h.append(
        f(
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" %s/>",
            x, x, MARGINS.top(), HT - MARGINS.bottom(), lineStyle));
    h.append(f("<text x=\"%.1f\" y=\"%d\" %s>%s</text>", x + 5, labelY, textStyle, label));
  }

  /** One run: a line through its usable rungs, a dot per rung with its p95 as a tooltip. */
  private static void run(
      StringBuilder h, Scale s, double sloMs, List<QmaxStep> ordered, String color) {
    StringBuilder path = new StringBuilder();
    for (QmaxStep step : ordered) {
      Double p95 = step.ttfabP95Ms();
      if (step.isUsable() && p95 != null) {
        path.append(path.isEmpty() ? "M" : " L")
            .append(f("%.1f %.1f", s.x(step.concurrency()), s.y(p95)));
      }
    }
    h.append(f("<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>", path, color));
    for (QmaxStep step : ordered) {
      Double p95 = step.ttfabP95Ms();
      if (p95 == null) {
        continue; // nothing succeeded at this rung: no point to draw
      }
      boolean breach = p95 > sloMs;
      h.append(
          f(
              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\" stroke=\"%s\""
                  + " stroke-width=\"2\"><title>N=%d p95 %.1f ms%s</title></circle>",
              s.x(step.concurrency()),
              s.y(p95),
              !step.isUsable() ? "white" : breach ? "#c0262d" : color,
              breach ? "#c0262d" : color,
              step.concurrency(),
              p95,
              step.isUsable() ? "" : " (unusable: " + esc(step.unusableReason()) + ")"));
    }
  }

  private static List<Integer> xTicks(int max) {
    int step = Math.max(1, (int) Math.ceil(max / 10.0));
    List<Integer> ticks = new ArrayList<>();
    for (int n = 0; n <= max; n += step) {
      ticks.add(n);
    }
    return ticks;
  }
}
