package dev.speechscale.report;

import java.util.List;
import java.util.Locale;

/** A small time-series chart as inline SVG: one or more lines over minutes, with axes. */
final class Svg {
  static final int WIDTH = 620;
  static final int HEIGHT = 180;
  private static final int LEFT = 56;
  private static final int RIGHT = 12;
  private static final int TOP = 34;
  private static final int BOTTOM = 28;

  private Svg() {}

  /**
   * One series to draw.
   *
   * @param values one value per minute; null or NaN leaves a gap
   * @param color the stroke
   * @param label the legend
   */
  record Line(List<? extends Number> values, String color, String label) {}

  /** A chart of {@code lines} over {@code minutes} minutes, without a reference line. */
  static String chart(String title, String unit, List<Line> lines, int minutes) {
    return chart(title, unit, lines, minutes, Double.NaN, "");
  }

  /**
   * A chart of {@code lines} over {@code minutes} minutes.
   *
   * @param title above the plot
   * @param unit the y axis's unit
   * @param lines the series
   * @param reference a horizontal reference line (the SLO), or NaN for none
   * @param referenceLabel its label
   */
  static String chart(
      String title,
      String unit,
      List<Line> lines,
      int minutes,
      double reference,
      String referenceLabel) {
    double max = Double.isNaN(reference) ? 0 : reference;
    for (Line l : lines) {
      for (Number v : l.values()) {
        if (v != null && !Double.isNaN(v.doubleValue())) {
          max = Math.max(max, v.doubleValue());
        }
      }
    }
    double top = niceCeiling(max);
    int plotW = WIDTH - LEFT - RIGHT;
    int plotH = HEIGHT - TOP - BOTTOM;
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d"
                + " %d\" role=\"img\" aria-label=\"%s\">",
            WIDTH,
            HEIGHT,
            WIDTH,
            HEIGHT,
            Html.esc(title)));
    s.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"14\" font-size=\"12\" font-weight=\"600\">%s</text>",
            LEFT,
            Html.esc(title)));
    int ticks = ticks(top);
    for (int i = 0; i <= ticks; i++) {
      double v = top * i / ticks;
      double y = TOP + plotH - plotH * i / (double) ticks;
      s.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e7ef\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\""
                  + " fill=\"#5b6478\">%s</text>",
              LEFT,
              WIDTH - RIGHT,
              y,
              y,
              LEFT - 4,
              y + 3,
              number(v)));
    }
    s.append(
        String.format(
            Locale.ROOT,
            "<text x=\"4\" y=\"%d\" font-size=\"10\" fill=\"#5b6478\">%s</text>",
            TOP - 8,
            Html.esc(unit)));
    int hours = Math.max(1, minutes / 60);
    int step = hours <= 6 ? 1 : hours <= 24 ? 3 : hours <= 72 ? 12 : 24;
    for (int h = 0; h * 60 <= minutes; h += step) {
      double x = LEFT + plotW * (h * 60.0) / Math.max(1, minutes);
      s.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\""
                  + " fill=\"#5b6478\">%dh</text>",
              x,
              HEIGHT - 10,
              h));
    }
    if (!Double.isNaN(reference)) {
      double y = TOP + plotH - plotH * reference / top;
      s.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#c0262d\""
                  + " stroke-dasharray=\"5 3\"/><text x=\"%d\" y=\"%.1f\" font-size=\"10\""
                  + " text-anchor=\"end\" fill=\"#c0262d\">%s</text>",
              LEFT,
              WIDTH - RIGHT,
              y,
              y,
              WIDTH - RIGHT,
              y - 3,
              Html.esc(referenceLabel)));
    }
    int legendWidth = 0;
    for (Line l : lines) {
      legendWidth += 20 + 6 * l.label().length();
    }
    int legendX = WIDTH - RIGHT - legendWidth;
    for (Line l : lines) {
      s.append(polyline(l, minutes, top, plotW, plotH));
      if (lines.size() > 1) {
        s.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"21\" width=\"10\" height=\"3\" fill=\"%s\"/><text x=\"%d\""
                    + " y=\"26\" font-size=\"10\">%s</text>",
                legendX,
                l.color(),
                legendX + 14,
                Html.esc(l.label())));
        legendX += 20 + 6 * l.label().length();
      }
    }
    s.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#9aa3b5\"/>",
            LEFT,
            TOP,
            plotW,
            plotH));
    return s.append("</svg>").toString();
  }

  private static String polyline(Line l, int minutes, double top, int plotW, int plotH) {
    StringBuilder s = new StringBuilder();
    StringBuilder points = new StringBuilder();
    int i = 0;
    for (Number v : l.values()) {
      if (v == null || Double.isNaN(v.doubleValue())) {
        flush(s, points, l.color());
      } else {
        double x = LEFT + plotW * (i + 0.5) / Math.max(1, minutes);
        double y = TOP + plotH - plotH * v.doubleValue() / top;
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
      }
      i++;
    }
    flush(s, points, l.color());
    return s.toString();
  }

  private static void flush(StringBuilder s, StringBuilder points, String color) {
    if (points.isEmpty()) {
      return;
    }
    s.append("<polyline fill=\"none\" stroke-width=\"1.3\" stroke=\"")
        .append(color)
        .append("\" points=\"")
        .append(points.toString().strip())
        .append("\"/>");
    points.setLength(0);
  }

  /** Grid lines for a ceiling of 1, 2 or 5 times a power of ten: steps of 0.2, 0.5 or 1. */
  static int ticks(double top) {
    double mantissa = top / Math.pow(10, Math.floor(Math.log10(top)));
    return Math.abs(mantissa - 2) < 1e-9 ? 4 : 5;
  }

  /** 1, 2 or 5 times a power of ten, at least {@code v} (1 for 0). */
  static double niceCeiling(double v) {
    if (!(v > 0)) {
      return 1;
    }
    double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= v) {
        return m * p;
      }
    }
    return 10 * p;
  }

  static String number(double v) {
    if (v >= 10_000) {
      return String.format(Locale.ROOT, "%.0fk", v / 1000);
    }
    if (v == Math.rint(v)) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    return String.format(Locale.ROOT, "%.2g", v);
  }
}
