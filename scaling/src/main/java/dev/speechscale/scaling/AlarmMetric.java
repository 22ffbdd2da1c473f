package dev.speechscale.scaling;

import dev.speechscale.platform.MetricQuery.Metric;
import java.time.Duration;

/**
 * What a scaling alarm watches: one statistic of a metric per period. Target tracking's alarms
 * ({@link TargetTracking}) and the step scale-in alarm ({@link StepScaleIn}) read their periods
 * through it the same way ({@link ScalingEngine}).
 */
interface AlarmMetric {
  Metric metric();

  MetricStatistic statistic();

  Duration period();
}
