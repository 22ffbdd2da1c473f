package dev.speechscale.report;

import static dev.speechscale.report.Html.esc;
import static dev.speechscale.report.Html.f;

import java.util.ArrayList;
import java.util.List;

/**
 * One x/y plot as inline SVG: a plot area inside margins, an x and a y {@link Axis}, grid lines
 * with their labels, reference lines and series. The report's newer charts (latency CDFs, the surge
 * curve, the validate timeline) share it; each chart decides what to draw, this class only where.
 * Labels are escaped here; callers pass plain text.
 */
final class Plot {
  static final String GRID = "#e3e7ef";
  static final String INK = "#5b6478";

  /** Every chart of the report is this wide, in SVG units (the page scales it to its column). */
  static final int WIDTH = 900;

  private final int height;
  private final Margins m;
  private final Axis x;
  private final Axis y;
  private final StringBuilder s = new StringBuilder();

  /** Space around the plot area, in SVG units. */
  record Margins(int left, int right, int top, int bottom) {}

  /** Where a value falls along an axis, as a fraction of its length (0 at the origin). */
  sealed interface Axis {
    double fraction(double v);

    /** Linear from {@code lo} to {@code hi}. */
    record Linear(double lo, double hi) implements Axis {
      @Override
      public double fraction(double v) {
        return hi == lo ? 0 : (v - lo) / (hi - lo);
      }
    }

    /** Logarithmic from {@code lo} to {@code hi}, both positive; values at or below 0 clamp. */
    record Log(double lo, double hi) implements Axis {
      @Override
      public double fraction(double v) {
        double clamped = Math.max(v, lo / 10);
        return Math.log(clamped / lo) / Math.log(hi / lo);
      }
    }
  }

  Plot(int height, Margins margins, Axis x, Axis y, String ariaLabel) {
    this.height = height;
    this.m = margins;
    this.x = x;
    this.y = y;
    s.append(
        f(
            "<svg viewBox=\"0 0 %d %d\" width=\"100%%\" role=\"img\" aria-label=\"%s\">",
            WIDTH, height, esc(ariaLabel)));
    s.append(
        f(
            "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" fill=\"#fbfcfe\""
                + " stroke=\"#d5dbe6\"/>",
            m.left(), m.top(), plotWidth(), plotHeight()));
  }

  double plotWidth() {
    return WIDTH - m.left() - m.right();
  }

  double plotHeight() {
    return height - m.top() - m.bottom();
  }

  double px(double v) {
    return m.left() + plotWidth() * x.fraction(v);
  }

  double py(double v) {
    return m.top() + plotHeight() * (1 - y.fraction(v));
  }

  /** A vertical grid line at {@code v} with its label under the plot. */
  Plot xTick(double v, String label) {
    double at = px(v);
    s.append(
        f(
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\"/>",
            at, at, m.top(), height - m.bottom(), GRID));
    s.append(
        f(
            "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\" fill=\"%s\">%s"
                + "</text>",
            at, height - m.bottom() + 16, INK, esc(label)));
    return this;
  }

  /** A vertical grid line at {@code v} without a label (a panel above one that labels it). */
  Plot xGrid(double v) {
    double at = px(v);
    s.append(
        f(
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\"/>",
            at, at, m.top(), height - m.bottom(), GRID));
    return this;
  }

  /**
   * A filled bar from the x axis's {@code from} to {@code to} and the y axis's 0 to {@code v}, with
   * a hover title.
   */
  Plot bar(double from, double to, double v, String color, String tooltip) {
    double x0 = px(from);
    double x1 = px(to);
    double y0 = py(0);
    double y1 = py(v);
    s.append(
        f(
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                + "<title>%s</title></rect>",
            x0, y1, Math.max(0.5, x1 - x0), Math.max(0, y0 - y1), color, esc(tooltip)));
    return this;
  }

  /** A horizontal grid line at {@code v} with its label left of the plot. */
  Plot yTick(double v, String label) {
    double at = py(v);
    s.append(
        f(
            "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>",
            m.left(), WIDTH - m.right(), at, at, GRID));
    s.append(
        f(
            "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\" fill=\"%s\">%s</text>",
            m.left() - 6, at + 4, INK, esc(label)));
    return this;
  }

  /** The x axis's title, centred under the tick labels. */
  Plot xTitle(String title) {
    s.append(
        f(
            "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\" fill=\"%s\">%s"
                + "</text>",
            m.left() + plotWidth() / 2, height - 6, INK, esc(title)));
    return this;
  }

  /** The y axis's title, above the plot at its left edge. */
  Plot yTitle(String title) {
    s.append(
        f(
            "<text x=\"%d\" y=\"%d\" font-size=\"12\" font-weight=\"600\" fill=\"#1d2330\">%s"
                + "</text>",
            m.left(), m.top() - 8, esc(title)));
    return this;
  }

  /**
   * A vertical reference line across the plot at {@code v}, its label beside it at {@code labelDy}
   * below the plot's top (negative: above the plot, in the margin): to the right of the line, or to
   * its left when the line is in the right fifth of the plot, so the label stays inside.
   */
  Plot vertical(double v, String color, String dash, String label, int labelDy) {
    double at = px(v);
    s.append(
        f(
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>",
            at, at, m.top(), height - m.bottom(), color, dashed(dash)));
    labelBeside(at, labelDy, 5, "font-size=\"12\" font-weight=\"600\"", color, label);
    return this;
  }

  /**
   * A thin dotted vertical line at {@code v} marking an event (a phase's start), labelled in small
   * type at {@code labelDy} below the plot's top unless {@code label} is empty.
   */
  Plot marker(double v, String label, int labelDy) {
    double at = px(v);
    s.append(
        f(
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#8a93a6\""
                + " stroke-dasharray=\"2 3\"/>",
            at, at, m.top(), height - m.bottom()));
    if (!label.isEmpty()) {
      labelBeside(at, labelDy, 4, "font-size=\"11\"", INK, label);
    }
    return this;
  }

  /**
   * A label {@code gap} pixels beside the vertical line at SVG x {@code at}, {@code labelDy} below
   * the plot's top: to the line's right, or to its left when the line is in the right fifth of the
   * plot, so the label stays inside.
   */
  private void labelBeside(
      double at, int labelDy, int gap, String fontAttributes, String fill, String label) {
    boolean left = at > m.left() + 0.8 * plotWidth();
    s.append(
        f(
            "<text x=\"%.1f\" y=\"%d\" %s text-anchor=\"%s\" fill=\"%s\">%s</text>",
            left ? at - gap : at + gap,
            m.top() + labelDy,
            fontAttributes,
            left ? "end" : "start",
            fill,
            esc(label)));
  }

  /** A horizontal reference line across the plot at {@code v}, labelled at its right end. */
  Plot horizontal(double v, String color, String dash, String label) {
    return horizontal(v, color, dash, label, false);
  }

  /**
   * A horizontal reference line across the plot at {@code v}, labelled at its left end when {@code
   * atLeft} (where the data leaves room), else at its right end.
   */
  Plot horizontal(double v, String color, String dash, String label, boolean atLeft) {
    double at = py(v);
    s.append(
        f(
            "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\""
                + "%s/>",
            m.left(), WIDTH - m.right(), at, at, color, dashed(dash)));
    s.append(
        f(
            "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"%s\" fill=\"%s\">%s</text>",
            atLeft ? m.left() + 4 : WIDTH - m.right() - 4,
            at - 4,
            atLeft ? "start" : "end",
            color,
            esc(label)));
    return this;
  }

  /**
   * A line through {@code points} ({x, y} pairs in data units); a {@code null} point breaks the
   * line. {@code tooltip} becomes the line's title, shown on hover.
   */
  Plot line(List<double[]> points, String color, double strokeWidth, String dash, String tooltip) {
    StringBuilder d = new StringBuilder();
    boolean pen = false;
    for (double[] p : points) {
      if (p == null) {
        pen = false;
        continue;
      }
      d.append(d.isEmpty() ? "" : " ")
          .append(pen ? "L" : "M")
          .append(f("%.1f %.1f", px(p[0]), py(p[1])));
      pen = true;
    }
    String path = d.toString();
    if (path.isEmpty()) {
      return this;
    }
    s.append(
        f(
            "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"%s>",
            path, color, strokeWidth, dashed(dash)));
    s.append("<title>").append(esc(tooltip)).append("</title></path>");
    return this;
  }

  /** A dot at ({@code vx}, {@code vy}) with a hover title. */
  Plot dot(double vx, double vy, String color, String tooltip) {
    s.append(
        f(
            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>%s</title></circle>",
            px(vx), py(vy), color, esc(tooltip)));
    return this;
  }

  /** Text at SVG coordinates (for legends outside the plot area). */
  Plot text(double atX, double atY, String color, String text) {
    s.append(
        f(
            "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"%s\">%s</text>",
            atX, atY, color, esc(text)));
    return this;
  }

  /** A short legend swatch (a line segment) at SVG coordinates. */
  Plot swatch(double atX, double atY, String color, String dash) {
    s.append(
        f(
            "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\""
                + " stroke-width=\"3\"%s/>",
            atX, atX + 18, atY, atY, color, dashed(dash)));
    return this;
  }

  /** The finished SVG element. */
  String svg() {
    return s + "</svg>";
  }

  private static String dashed(String dash) {
    return dash == null || dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"";
  }

  private static final double[] STEPS = {1, 2, 5};

  /** 1, 2 and 5 times each power of ten from {@code lo} to {@code hi}: a log axis's ticks. */
  static List<Double> logTicks(double lo, double hi) {
    List<Double> out = new ArrayList<>();
    for (double decade = decadeBelow(lo); decade <= hi * (1 + 1e-9); decade *= 10) {
      for (double m : STEPS) {
        double v = decade * m;
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) {
          out.add(v);
        }
      }
    }
    return out;
  }

  /** The largest of 1, 2 or 5 times a power of ten at or below {@code v} (positive). */
  static double niceBelow(double v) {
    double decade = decadeBelow(v);
    double out = decade;
    for (double m : STEPS) {
      if (decade * m <= v * (1 + 1e-9)) {
        out = decade * m;
      }
    }
    return out;
  }

  /** The smallest of 1, 2 or 5 times a power of ten at or above {@code v} (positive). */
  static double niceAbove(double v) {
    double decade = decadeBelow(v);
    for (double m : new double[] {1, 2, 5, 10}) {
      if (decade * m >= v * (1 - 1e-9)) {
        return decade * m;
      }
    }
    return decade * 10;
  }

  /** The power of ten at or below {@code v} (positive). */
  static double decadeBelow(double v) {
    return Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
  }
}
