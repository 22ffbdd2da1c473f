package dev.speechscale.simulator;

import dev.speechscale.scaling.ScaleInAlarm;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

/**
 * The values the search tries for each setting, searched one setting at a time from the plan's
 * policy (coordinate descent, in the order of {@link #dimensions}): each setting's values are
 * screened with the others at the best found so far, and the best becomes the new start.
 *
 * @param targets scaling_target_value
 * @param scaleInRatios scale_in_threshold as a share of the target
 * @param alarms scale_in_alarm
 * @param scaleInCooldowns scale_in_cooldown_s
 * @param scaleOutCooldowns scale_out_cooldown_s
 * @param floorFractions the floors' share of each hour's quietest minute (0: none)
 * @param mins min_instances
 * @param maxes max_instances
 * @param invocationTargets scaling_target_value for {@code scaling_metric:
 *     invocations_per_instance} (requests per instance per minute)
 * @param invocationScaleInCooldowns its scale_in_cooldown_s (target tracking's own scale-in)
 * @param invocationScaleOutCooldowns its scale_out_cooldown_s
 */
public record SearchSpace(
    List<Double> targets,
    List<Double> scaleInRatios,
    List<ScaleInAlarm> alarms,
    List<Integer> scaleInCooldowns,
    List<Integer> scaleOutCooldowns,
    List<Double> floorFractions,
    List<Integer> mins,
    List<Integer> maxes,
    List<Double> invocationTargets,
    List<Integer> invocationScaleInCooldowns,
    List<Integer> invocationScaleOutCooldowns) {

  /**
   * Around the plan: its target and ¾, ½, ¼ and ⅒ of it; its scale-in ratio, ½ and 0.8; its
   * scale-in alarm and {@link ScaleInAlarm#MAXIMUM_10S} (not {@link ScaleInAlarm#AVERAGE_60S}
   * unless the plan deploys it: that alarm undoes target tracking's fresh scale-out at a surge
   * after a quiet spell, the {@code policy_conflict} {@code plan} replaced it for, which a smooth
   * day's trace need not show; a search that may pick it would hand back the fight); its scale-in
   * cooldown, 600, 300, 120 and 60 s; its scale-out cooldown and 60 s; no floors or floors at 50,
   * 80 and 100 % of each hour's quietest minute (when {@code floors}); its min and {@code minSafe};
   * its max and 20 % more. InvocationsPerInstance target tracking (scale-in enabled, no step
   * policy) at AWS's load-testing target (safety factor 0.5, the {@code invocations} rival's) and
   * at safety factors 0.6 and 0.7; its scale-in cooldown SageMaker's default 300 s, 120 and 60 s;
   * its scale-out cooldown 300 or 60 s.
   */
  public static SearchSpace around(Policies.PlanNumbers p, int minSafe, boolean floors) {
    double t = p.targetValue();
    return new SearchSpace(
        distinct(List.of(t, round(t * 0.75), round(t * 0.5), round(t * 0.25), round(t * 0.1))),
        distinct(List.of(p.scaleInThreshold() / t, 0.5, 0.8)),
        distinct(List.of(p.scaleInAlarm(), ScaleInAlarm.MAXIMUM_10S)),
        distinct(List.of((int) p.scaleInCooldown().toSeconds(), 600, 300, 120, 60)),
        distinct(List.of((int) p.scaleOutCooldown().toSeconds(), 60)),
        floors ? List.of(0.0, 0.5, 0.8, 1.0) : List.of(0.0),
        distinct(List.of(p.minInstances(), Math.max(p.minInstances(), minSafe))),
        distinct(List.of(p.maxInstances(), (int) Math.ceil(p.maxInstances() * 1.2))),
        invocationTargets(Policies.invocations(p).targetPerInstancePerMinute()),
        List.of(300, 120, 60),
        List.of(300, 60));
  }

  private static List<Double> invocationTargets(double atHalf) {
    double perSecond = atHalf / Policies.INVOCATIONS_SAFETY_FACTOR;
    return distinct(List.of(round(atHalf), round(perSecond * 0.6), round(perSecond * 0.7)));
  }

  /**
   * The InvocationsPerInstance start: the {@code invocations} rival as a candidate (its target and
   * cooldowns), the plan's min and max, no floors; the threshold and alarm are the plan's, not
   * deployed.
   */
  public Candidate invocationsStart(Policies.PlanNumbers p) {
    return new Candidate(
        invocationTargets.getFirst(),
        p.scaleInThreshold(),
        p.scaleInAlarm(),
        invocationScaleOutCooldowns.getFirst(),
        invocationScaleInCooldowns.getFirst(),
        p.minInstances(),
        p.maxInstances(),
        0,
        List.of(),
        dev.speechscale.platform.MetricQuery.Metric.INVOCATIONS_PER_INSTANCE);
  }

  /** The InvocationsPerInstance settings in search order (target, cooldowns, floors). */
  public List<Dimension> invocationDimensions(UnaryOperator<Candidate> withFloors) {
    return List.of(
        dimension(
            "invocations target",
            invocationTargets,
            (c, t) -> c.withTarget(t, c.scaleInThreshold())),
        dimension(
            "invocations scale-in cooldown",
            invocationScaleInCooldowns,
            (c, s) -> c.withCooldowns(c.scaleOutCooldownS(), s)),
        dimension(
            "invocations scale-out cooldown",
            invocationScaleOutCooldowns,
            (c, s) -> c.withCooldowns(s, c.scaleInCooldownS())),
        floorsDimension("invocations scheduled floors", withFloors));
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  private static <T> List<T> distinct(List<T> values) {
    return List.copyOf(new LinkedHashSet<>(values));
  }

  /**
   * One setting: its name and, for a start, the candidates that differ from it in this setting only
   * (in the order of the values; the start itself is left out).
   */
  public record Dimension(
      String name, java.util.function.Function<Candidate, List<Candidate>> moves) {}

  /** The settings in search order, each mapping a start to its neighbours. */
  public List<Dimension> dimensions(UnaryOperator<Candidate> withFloors) {
    return List.of(
        dimension(
            "target",
            targets,
            (c, t) -> c.withTarget(t, round(t * c.scaleInThreshold() / c.targetValue()))),
        dimension(
            "scale-in cooldown",
            scaleInCooldowns,
            (c, s) -> c.withCooldowns(c.scaleOutCooldownS(), s)),
        dimension(
            "scale-in threshold",
            scaleInRatios,
            (c, r) -> c.withTarget(c.targetValue(), round(c.targetValue() * r))),
        dimension("scale-in alarm", alarms, Candidate::withAlarm),
        dimension(
            "scale-out cooldown",
            scaleOutCooldowns,
            (c, s) -> c.withCooldowns(s, c.scaleInCooldownS())),
        dimension(
            "min", mins, (c, m) -> withFloors.apply(c.withInstances(m, Math.max(m, c.max())))),
        new Dimension(
            "max",
            c ->
                maxes.stream()
                    .filter(m -> m >= c.min())
                    .map(m -> withFloors.apply(c.withInstances(c.min(), m)))
                    .toList()),
        floorsDimension("scheduled floors", withFloors));
  }

  /** A setting whose neighbours are {@code move} applied to the start and each of its values. */
  private static <T> Dimension dimension(
      String name, List<T> values, BiFunction<Candidate, T, Candidate> move) {
    return new Dimension(name, c -> values.stream().map(v -> move.apply(c, v)).toList());
  }

  /** The scheduled floors at each of {@link #floorFractions}. */
  private Dimension floorsDimension(String name, UnaryOperator<Candidate> withFloors) {
    return new Dimension(
        name,
        c ->
            floorFractions.stream()
                .map(f -> withFloors.apply(c.withFloors(f, List.of())))
                .toList());
  }
}
