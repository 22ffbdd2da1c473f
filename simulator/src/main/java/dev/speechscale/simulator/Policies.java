package dev.speechscale.simulator;

import dev.speechscale.capacity.FleetSizing;
import dev.speechscale.scaling.ScaleInAlarm;
import dev.speechscale.scaling.ScalingRules;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The policies a user names on the command line ({@code plan,naive,invocations,cpu,fixed:N}), built
 * from the plan's numbers. Rivals share the plan's min and max unless stated.
 */
public final class Policies {
  /** What {@code --policies} accepts, for usage and error text. */
  public static final String NAMES =
      "plan, plan:average_60s, plan:maximum_10s, naive, invocations, cpu, fixed:N";

  /**
   * AWS's guidance for SageMaker InvocationsPerInstance ("Load testing your auto scaling
   * configuration", SageMaker Developer Guide,
   * docs.aws.amazon.com/sagemaker/latest/dg/endpoint-scaling-loadtest.html): {@code
   * SageMakerVariantInvocationsPerInstance = (MAX_RPS × SAFETY_FACTOR) × 60}, "SageMaker AI
   * recommends that you start testing with a SAFETY_FACTOR of 0.5". MAX_RPS is one instance's
   * highest sustained rate in a load test; here the ladder's highest measured throughput.
   */
  public static final double INVOCATIONS_SAFETY_FACTOR = 0.5;

  /**
   * The CPU-style rival's target: 70 % busy, a round, hand-picked utilisation target of the kind
   * users set for CPU target tracking; it comes from no measurement, which is the point of the
   * comparison.
   */
  public static final double CPU_TARGET_PERCENT = 70;

  private Policies() {}

  /**
   * The plan's numbers the policies are built from.
   *
   * @param minInstances the plan's floor
   * @param maxInstances the plan's ceiling
   * @param targetValue scaling_target_value (ConcurrentRequestsPerModel, Maximum)
   * @param scaleInThreshold scale_in_threshold (Average)
   * @param scaleOutCooldown the plan's scale-out cooldown
   * @param scaleInCooldown the plan's scale-in cooldown
   * @param cScaleMax C_scale_max, for the published sizing
   * @param peakPerSecond the plan's peak request rate, for the published sizing
   * @param sMeanSeconds S_mean, for the published sizing
   * @param saturatedPerSecond one instance's highest measured throughput (MAX_RPS)
   * @param scaleInAlarm the plan's step scale-in alarm
   */
  public record PlanNumbers(
      int minInstances,
      int maxInstances,
      double targetValue,
      double scaleInThreshold,
      Duration scaleOutCooldown,
      Duration scaleInCooldown,
      double cScaleMax,
      double peakPerSecond,
      double sMeanSeconds,
      double saturatedPerSecond,
      ScaleInAlarm scaleInAlarm) {
    /** These numbers with the scale-in alarm labelled {@code label} (e.g. {@code maximum_10s}). */
    public PlanNumbers withScaleInAlarm(String label) {
      return new PlanNumbers(
          minInstances,
          maxInstances,
          targetValue,
          scaleInThreshold,
          scaleOutCooldown,
          scaleInCooldown,
          cScaleMax,
          peakPerSecond,
          sMeanSeconds,
          saturatedPerSecond,
          ScaleInAlarm.ofLabel(label));
    }
  }

  /**
   * Parses a comma-separated list of policy names, in order, refusing unknown names and duplicates.
   */
  public static List<Policy> parse(String spec, PlanNumbers plan) {
    return names(spec).stream().map(name -> one(name, plan)).toList();
  }

  /**
   * The policy names of a comma-separated list, in order and in canonical form ({@code fixed:02} →
   * {@code fixed:2}), refusing unknown names, a {@code fixed:N} without a whole number of at least
   * 1 and duplicates. Needs no plan, so a command checks its usage before it reads any artifact.
   */
  public static List<String> names(String spec) {
    Set<String> seen = new LinkedHashSet<>();
    for (String raw : spec.split(",", -1)) {
      String name = canonical(raw.strip().toLowerCase(Locale.ROOT));
      if (!seen.add(name)) {
        throw new SimulatorException(
            "--policies names '" + name + "' twice; name each policy once");
      }
    }
    return List.copyOf(seen);
  }

  private static String canonical(String name) {
    if (name.startsWith("fixed:")) {
      String n = name.substring("fixed:".length());
      try {
        return new Policy.Fixed(Integer.parseInt(n)).name();
      } catch (NumberFormatException e) {
        throw new SimulatorException(
            "--policies: 'fixed:" + n + "' needs a whole number of instances, e.g. fixed:280");
      }
    }
    if (name.startsWith("plan:")) {
      try {
        return "plan:" + ScaleInAlarm.ofLabel(name.substring("plan:".length())).label();
      } catch (IllegalArgumentException e) {
        throw new SimulatorException("--policies: '" + name + "': " + e.getMessage());
      }
    }
    return switch (name) {
      case "plan", "naive", "invocations", "cpu" -> name;
      default ->
          throw new SimulatorException(
              "--policies: unknown policy '"
                  + name
                  + "'; choose from "
                  + NAMES
                  + " (comma-separated)");
    };
  }

  /** The policy a canonical name stands for. */
  private static Policy one(String name, PlanNumbers plan) {
    if (name.startsWith("fixed:")) {
      return new Policy.Fixed(Integer.parseInt(name.substring("fixed:".length())));
    }
    if (name.startsWith("plan:")) {
      return planned(plan, ScaleInAlarm.ofLabel(name.substring("plan:".length())), name);
    }
    return switch (name) {
      case "plan" -> planned(plan);
      case "naive" -> published(plan);
      case "invocations" -> invocations(plan);
      case "cpu" -> cpu(plan);
      default -> throw new IllegalArgumentException("not a canonical policy name: " + name);
    };
  }

  /** The plan's own policy. */
  public static Policy.Planned planned(PlanNumbers p) {
    return planned(p, p.scaleInAlarm(), "plan");
  }

  /** The plan's policy with another scale-in alarm, under {@code name}. */
  public static Policy.Planned planned(PlanNumbers p, ScaleInAlarm alarm, String name) {
    return new Policy.Planned(
        name,
        p.minInstances(),
        p.maxInstances(),
        p.targetValue(),
        p.scaleInThreshold(),
        p.scaleOutCooldown(),
        p.scaleInCooldown(),
        alarm);
  }

  /** The plan's policy with the published tool's fleet ceiling. */
  public static Policy.PublishedSizing published(PlanNumbers p) {
    int naive = FleetSizing.naive(p.peakPerSecond(), p.sMeanSeconds(), p.cScaleMax());
    int max = Math.max(p.minInstances(), naive);
    String sizing =
        String.format(
            Locale.ROOT,
            "ceil(%s x %.4g / %.4g) = %d",
            Traffic.rate(p.peakPerSecond()),
            p.sMeanSeconds(),
            p.cScaleMax(),
            naive);
    return new Policy.PublishedSizing(
        p.minInstances(),
        max,
        p.targetValue(),
        p.scaleInThreshold(),
        p.scaleOutCooldown(),
        p.scaleInCooldown(),
        sizing,
        p.scaleInAlarm());
  }

  /** InvocationsPerInstance at AWS's load-testing formula, SageMaker's default cooldowns. */
  public static Policy.InvocationsTracking invocations(PlanNumbers p) {
    double target = p.saturatedPerSecond() * INVOCATIONS_SAFETY_FACTOR * 60;
    String assumption =
        String.format(
            Locale.ROOT,
            "AWS load-testing guidance: MAX_RPS %.4g x safety factor %.1f x 60",
            p.saturatedPerSecond(),
            INVOCATIONS_SAFETY_FACTOR);
    return new Policy.InvocationsTracking(
        p.minInstances(),
        p.maxInstances(),
        target,
        ScalingRules.SAGEMAKER_DEFAULT_COOLDOWN,
        ScalingRules.SAGEMAKER_DEFAULT_COOLDOWN,
        assumption);
  }

  /** Busy-percent tracking at 70 %, SageMaker's default cooldowns. */
  public static Policy.CpuTracking cpu(PlanNumbers p) {
    return new Policy.CpuTracking(
        p.minInstances(),
        p.maxInstances(),
        CPU_TARGET_PERCENT,
        ScalingRules.SAGEMAKER_DEFAULT_COOLDOWN,
        ScalingRules.SAGEMAKER_DEFAULT_COOLDOWN);
  }
}
