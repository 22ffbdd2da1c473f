package dev.speechscale.artifacts;

import dev.speechscale.capacity.Load;
import dev.speechscale.capacity.Plan;
import dev.speechscale.capacity.Scenario;
import dev.speechscale.capacity.UnitsRatio;
import dev.speechscale.platform.MetricQuery;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The deployable endpoint configuration as YAML, in the endpoint config file's format (a {@code
 * models:} map), each value commented with where it came from. Paste it into the endpoint config;
 * {@code speech-infra} then attaches scaling only with this plan beside it.
 */
final class ConfigBlock {
  private ConfigBlock() {}

  static String render(PlanArtifact.EndpointConfigBlock b, Plan p, Scenario s) {
    StringBuilder y = new StringBuilder();
    y.append("models:\n");
    y.append("  ").append(b.modelName()).append(":\n");
    line(y, "instance_type", b.instanceType(), "the measured fingerprint's instance type");
    sizing(y, b, p, s);
    thresholds(y, b, p);
    line(
        y,
        "ttfab_slo_ms",
        Integer.toString(b.ttfabSloMs()),
        f(
            "end-to-end promise; W_max %.3fs + S_p95 fits the %.0fs ceiling",
            p.wMaxSeconds(), s.ceilingSeconds()));
    line(
        y,
        "queue_max_depth",
        Integer.toString(b.queueMaxDepth()),
        "= Q_max: past it a request cannot reach first byte inside the SLO");
    line(
        y,
        "scale_out_cooldown_s",
        Integer.toString(b.scaleOutCooldownS()),
        "short: floor(max(10, min(30, T/2)))");
    line(
        y,
        "scale_in_cooldown_s",
        Integer.toString(b.scaleInCooldownS()),
        f("long: removed capacity costs a full T of %.0fs to replace", p.tTotalSeconds()));
    return y.toString();
  }

  /** min_instances and max_instances with the load each came from. */
  private static void sizing(
      StringBuilder y, PlanArtifact.EndpointConfigBlock b, Plan p, Scenario s) {
    line(
        y,
        "min_instances",
        Integer.toString(b.minInstances()),
        (s.trough() == null ? "floor" : "trough " + s.trough().describe())
            + (p.minSafeInstances() == null
                ? ""
                : "; "
                    + p.minSafeInstances()
                    + " is the smallest floor that keeps scale-in stable"));
    line(
        y,
        "max_instances",
        Integer.toString(b.maxInstances()),
        "peak "
            + s.peak().describe()
            + (s.peak() instanceof Load.RequestRate && p.throughputAtCScaleMaxPerSecond() != null
                ? f(
                    " at %.2f req/s per instance (measured X at C_scale_max)",
                    p.throughputAtCScaleMaxPerSecond())
                : f(" at C_scale_max %.2f per instance", p.cScaleMax())));
  }

  /** The target and scale-in threshold in server units, or why they are left out. */
  private static void thresholds(StringBuilder y, PlanArtifact.EndpointConfigBlock b, Plan p) {
    UnitsRatio ratioMax = p.ratioMax();
    UnitsRatio ratioAverage = p.ratioAverage();
    if (b.scalingTargetValue() != null
        && b.scaleInThreshold() != null
        && ratioMax != null
        && ratioAverage != null) {
      line(
          y,
          "scaling_target_value",
          f("%.3f", b.scalingTargetValue()),
          f(
              "C_scale_max %.2f x %.3f ("
                  + MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName()
                  + " Maximum / client mean, rung"
                  + " %d)",
              p.cScaleMax(),
              ratioMax.ratio(),
              ratioMax.atConcurrency()));
      line(
          y,
          "scale_in_threshold",
          f("%.3f", b.scaleInThreshold()),
          f(
              "C_scale_min %.2f x %.3f (Average / client mean, rung %d)",
              p.cScaleMin(), ratioAverage.ratio(), ratioAverage.atConcurrency()));
    } else {
      y.append(
          "    # scaling_target_value and scale_in_threshold are not emitted: no measured units"
              + " conversion, so deploy attaches no scaling\n");
    }
  }

  /** {@code block} with its {@code scale_in_alarm} line, after the scale-in cooldown's. */
  static String withAlarm(String block, ScaleInAlarmChoice alarm, String why) {
    StringBuilder y = new StringBuilder(block);
    line(y, "scale_in_alarm", alarm.label(), why);
    return y.toString();
  }

  private static void line(StringBuilder y, String key, @Nullable String value, String comment) {
    String kv = "    " + key + ": " + (value == null ? "null" : value);
    y.append(String.format(Locale.ROOT, "%-36s # %s\n", kv, comment));
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
