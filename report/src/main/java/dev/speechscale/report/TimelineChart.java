package dev.speechscale.report;

import static dev.speechscale.report.Html.esc;
import static dev.speechscale.report.Html.f;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.artifacts.ValidateTimeline;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The validate timeline: what {@code validate --live} saw over time, as four small charts on one
 * time axis (minutes:seconds from the start of the load checks): instances in service, the
 * concurrency metric the platform reported (with the deployed scaling target), p95 TTFAB of the
 * requests that ended in each interval (with the SLO), and the requests the endpoint refused. Each
 * load check's start is a dotted line through all four, named in the top one.
 */
final class TimelineChart {
  private static final int PANEL = 120;
  private static final int LAST_PANEL = PANEL + 36;
  private static final Plot.Margins UPPER = new Plot.Margins(56, 20, 22, 8);
  private static final Plot.Margins LOWER = new Plot.Margins(56, 20, 22, 44);
  private static final String COLOR = "#2f5bd3";

  private TimelineChart() {}

  static void html(StringBuilder h, ValidateArtifact v, @Nullable PlanArtifact plan) {
    h.append("<h3>Validate timeline</h3>\n");
    ValidateTimeline t = v.timeline();
    if (!v.live()) {
      h.append("<p class=\"meta\">no load was driven (static checks only).</p>\n");
      return;
    }
    if (t == null) {
      h.append("<p class=\"meta\">not recorded: this validate artifact was written before")
          .append(" validate --live recorded its timeline.</p>\n");
      return;
    }
    if (t.samples().isEmpty()) {
      h.append("<p class=\"meta\">nothing was recorded: the load checks ended at once.</p>\n");
      return;
    }
    double end = t.samples().getLast().tS() + t.intervalS();
    Double target = plan == null ? null : plan.scalingTargetValue();
    Double slo = plan == null ? null : (double) plan.endpointConfig().ttfabSloMs();
    h.append("<div class=\"chart\">");
    h.append(panel(t, end, "instances in service", false, instances(), 1, null, null));
    h.append(
        panel(
            t,
            end,
            "concurrency per instance (platform metric)",
            false,
            concurrency(),
            target == null ? 1 : target,
            target,
            target == null ? null : f("scaling target %.2f", target)));
    h.append(
        panel(
            t,
            end,
            "p95 TTFAB per interval",
            false,
            p95(),
            slo == null ? 1 : slo,
            slo,
            slo == null ? null : "SLO " + Html.millis(slo)));
    h.append(panel(t, end, "requests refused (shed) per interval", true, shed(), 1, null, null));
    h.append("</div>\n");
    legend(h, t);
  }

  /** How a panel draws its samples. */
  private enum Shape {
    /** A level held over each interval (a count that changes in steps). */
    STEP,
    /** A point at each interval's middle, joined. */
    LINE,
    /** A bar per interval, none where the value is 0. */
    BARS
  }

  /**
   * What one panel plots.
   *
   * @param value a sample's y value, or {@code null} for a gap
   * @param shape how it is drawn
   * @param whole whether values are counts (y labels stay whole numbers)
   * @param label a y value as its axis label
   */
  private record Series(
      Function<ValidateTimeline.Sample, @Nullable Double> value,
      Shape shape,
      boolean whole,
      Function<Double, String> label) {}

  private static Series instances() {
    return new Series(
        s -> s.instances() == null ? null : s.instances().doubleValue(),
        Shape.STEP,
        true,
        Svg::number);
  }

  private static Series concurrency() {
    return new Series(
        ValidateTimeline.Sample::serverConcurrencyMax, Shape.LINE, false, Svg::number);
  }

  private static Series p95() {
    return new Series(ValidateTimeline.Sample::ttfabP95Ms, Shape.LINE, false, Html::millis);
  }

  private static Series shed() {
    return new Series(s -> (double) s.shed(), Shape.BARS, true, Svg::number);
  }

  private static String panel(
      ValidateTimeline t,
      double end,
      String title,
      boolean last,
      Series series,
      double floor,
      @Nullable Double reference,
      @Nullable String referenceLabel) {
    double max = floor;
    for (ValidateTimeline.Sample s : t.samples()) {
      Double v = series.value().apply(s);
      if (v != null) {
        max = Math.max(max, v);
      }
    }
    // counts get whole-number axes with room above the highest; measures a 1-2-5 ceiling
    double top = series.whole() ? Math.max(1, Math.ceil(max * 1.2)) : Svg.niceCeiling(max * 1.05);
    Plot p =
        new Plot(
            last ? LAST_PANEL : PANEL,
            last ? LOWER : UPPER,
            new Plot.Axis.Linear(0, end),
            new Plot.Axis.Linear(0, top),
            title);
    for (double s : timeTicks(end)) {
      if (last) {
        p.xTick(s, Html.clock(s));
      } else {
        p.xGrid(s);
      }
    }
    for (double v : yTicks(top, series.whole())) {
      p.yTick(v, series.label().apply(v));
    }
    p.yTitle(title);
    if (last) {
      p.xTitle("time since the load checks began (minutes:seconds)");
    }
    boolean first = series.shape() == Shape.STEP;
    int labelAt = 0;
    for (ValidateTimeline.Phase phase : t.phases()) {
      p.marker(phase.atS(), first ? phaseName(phase.name()) : "", 12 + 13 * (labelAt++ % 2));
    }
    if (reference != null && referenceLabel != null) {
      p.horizontal(reference, "#c0262d", "6 4", referenceLabel);
    }
    draw(p, t, series, title);
    return p.svg();
  }

  private static void draw(Plot p, ValidateTimeline t, Series series, String title) {
    double w = t.intervalS();
    if (series.shape() == Shape.BARS) {
      for (ValidateTimeline.Sample s : t.samples()) {
        Double v = series.value().apply(s);
        if (v != null && v > 0) {
          p.bar(
              s.tS() + 0.1 * w,
              s.tS() + 0.9 * w,
              v,
              "#c0262d",
              f("%s: %.0f refused of %d", Html.clock(s.tS()), v, s.completed()));
        }
      }
      return;
    }
    List<double[]> points = new ArrayList<>();
    for (ValidateTimeline.Sample s : t.samples()) {
      Double v = series.value().apply(s);
      if (v == null) {
        points.add(null);
      } else if (series.shape() == Shape.STEP) {
        points.add(new double[] {s.tS(), v});
        points.add(new double[] {s.tS() + w, v});
      } else {
        points.add(new double[] {s.tS() + w / 2, v});
      }
    }
    p.line(points, COLOR, 2, "", title);
  }

  /** Every whole number up to a top of 6 for counts; else the ends and the middle. */
  private static List<Double> yTicks(double top, boolean whole) {
    List<Double> out = new ArrayList<>();
    if (whole && top <= 6) {
      for (int v = 0; v <= top; v++) {
        out.add((double) v);
      }
      return out;
    }
    double middle = whole ? Math.round(top / 2) : top / 2;
    return List.of(0.0, middle, top);
  }

  private static String phaseName(String check) {
    return switch (check) {
      case "live_rejections" -> "rejections above Q_max";
      case "live_slo_at_threshold_load" -> "SLO at 0.8\u00d7 threshold load";
      case "live_surge" -> "open-loop surge";
      case "live_scale_out" -> "scale-out";
      default -> check;
    };
  }

  /** Every 15, 30 or 60 s (or more), about ten ticks. */
  private static List<Double> timeTicks(double end) {
    double step = 15;
    for (double s : new double[] {15, 30, 60, 120, 300, 600}) {
      step = s;
      if (end / s <= 10) {
        break;
      }
    }
    List<Double> out = new ArrayList<>();
    for (double s = 0; s <= end + 1e-9; s += step) {
      out.add(s);
    }
    return out;
  }

  private static void legend(StringBuilder h, ValidateTimeline t) {
    h.append("<p class=\"legend\">One sample every ")
        .append(esc(f("%.0f s", t.intervalS())))
        .append(" from ")
        .append(esc(Html.utc(t.startedAt())))
        .append(": <b>instances in service</b>: as the platform described the endpoint;")
        .append(" <b>concurrency per instance</b>: ")
        .append(esc(t.concurrencyMetric()))
        .append(" (what target tracking reads; a gap: not published when validate ended);")
        .append(" <b>p95 TTFAB</b>: of the requests that succeeded in the interval, from their")
        .append(" intended send; <b>refused</b>: requests the endpoint shed (503 at admission,")
        .append(" 408 as stale). Dotted lines: where each live check began.</p>\n");
  }
}
