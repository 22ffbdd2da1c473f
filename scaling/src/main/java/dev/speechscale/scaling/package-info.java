/**
 * The one implementation of Application Auto Scaling's semantics as SpeechScale uses them, shared
 * by the local platform's autoscaler and the fleet simulator so they cannot drift apart. Pure: no
 * clock, no I/O, JDK only; times are epoch milliseconds passed in.
 *
 * <p>{@link dev.speechscale.scaling.ScalingRules} says what is deployed (the plan's shape, or AWS
 * target tracking with scale-in for the rivals a user would copy); {@link
 * dev.speechscale.scaling.ScalingEngine} evaluates the rules over {@link
 * dev.speechscale.scaling.Datapoints} and returns a {@link
 * dev.speechscale.scaling.ScalingDecision}. Periods are aligned to the epoch, as CloudWatch aligns
 * them, and read only once published ({@link
 * dev.speechscale.scaling.Datapoints#publicationDelayMs()}).
 *
 * <p>A new metric: a constant in {@link dev.speechscale.platform.MetricQuery.Metric} and a source
 * for it in each {@code Datapoints} implementation.
 */
package dev.speechscale.scaling;
