package dev.speechscale.simulator;

import java.util.List;

/**
 * A policy the search's result is compared with: the plan's own and the simulator's rivals.
 *
 * @param name as in {@code simulate}: plan, naive, invocations, cpu
 * @param full the policy as deployed
 * @param screened the policy on a fleet {@code scale} times smaller, for the screening
 * @param notDeployable why it cannot be deployed, or empty when it can
 */
public record Rival(String name, Policy full, Policy screened, String notDeployable) {

  /** Whether it can be deployed on the platform. */
  public boolean deployable() {
    return notDeployable.isEmpty();
  }

  /**
   * plan, naive, invocations and cpu from the plan's numbers; cpu is shown for comparison only: on
   * a GPU instance SageMaker's CPUUtilization is the host's CPUs, not the engine's busy share.
   */
  public static List<Rival> of(Policies.PlanNumbers p, int scale) {
    Policy.Planned plan = Policies.planned(p);
    Policy.PublishedSizing naive = Policies.published(p);
    Policy.InvocationsTracking inv = Policies.invocations(p);
    Policy.CpuTracking cpu = Policies.cpu(p);
    int minS = Math.max(1, (int) Math.round((double) p.minInstances() / scale));
    int maxS = Math.max(minS, Math.ceilDiv(p.maxInstances(), scale));
    return List.of(
        new Rival("plan", plan, planned(plan, plan.maxInstances()).screened("plan", scale), ""),
        new Rival("naive", naive, planned(plan, naive.maxInstances()).screened("naive", scale), ""),
        new Rival(
            "invocations",
            inv,
            new Policy.InvocationsTracking(
                minS,
                maxS,
                inv.targetPerInstancePerMinute(),
                inv.scaleOutCooldown(),
                inv.scaleInCooldown(),
                inv.assumption()),
            ""),
        new Rival(
            "cpu",
            cpu,
            new Policy.CpuTracking(
                minS, maxS, cpu.targetBusyPercent(), cpu.scaleOutCooldown(), cpu.scaleInCooldown()),
            "busy-percent is not a metric SageMaker publishes for a GPU engine (CPUUtilization is"
                + " the host's CPUs)"));
  }

  /** The plan's policy as a candidate with {@code max} instances at most. */
  static Candidate planned(Policy.Planned p, int max) {
    return new Candidate(
        p.targetValue(),
        p.scaleInThreshold(),
        p.scaleInAlarm(),
        (int) p.scaleOutCooldown().toSeconds(),
        (int) p.scaleInCooldown().toSeconds(),
        p.minInstances(),
        max,
        0,
        List.of(),
        dev.speechscale.platform.MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL);
  }
}
