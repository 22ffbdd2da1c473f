package dev.speechscale.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Judges and explains a derivation: one method per finding, each stating the numbers it used so a
 * user can check the arithmetic by hand. Kept apart from {@link Planner} so the arithmetic and the
 * prose can be read separately.
 *
 * <p>Longer than the house's 300 lines on purpose: it is the plan's wording, eleven findings in the
 * order {@link #all} runs them, so whoever checks a plan's text against its numbers reads one file.
 * Each finding reads only its {@link Derivation}: the inputs ({@code m()}, {@code t()}, {@code
 * s()}) and the sections the planner derived from them ({@code timing()}, {@code thresholds()},
 * {@code fleet()}, ...).
 */
final class Findings {
  private Findings() {}

  static List<Finding> all(Derivation d) {
    List<Finding> out = new ArrayList<>();
    out.add(measurementTrust(d));
    out.add(curveRepeatability(d));
    out.add(sloBudget(d));
    out.add(invocationCeiling(d));
    out.add(queueDepth(d));
    out.add(thresholdUnits(d));
    out.add(surgeSurvival(d));
    out.add(scaleInSafety(d));
    out.add(fleetCost(d));
    out.add(fleetCapacity(d));
    out.add(provisionStage(d));
    return out;
  }

  static Finding measurementTrust(Derivation d) {
    Measurement m = d.m();
    Ladder ladder = m.ladder();
    List<String> problems = new ArrayList<>();
    if (!m.frozen()) {
      problems.add("autoscaling was not frozen, so capacity may have moved mid-ladder");
    }
    if (!m.unboundedQueue()) {
      problems.add(
          "the container's queue was bounded while measuring, so Q_max may be the gate's bound"
              + " rather than the instance's");
    }
    if (m.declaredQMax() != null && m.declaredQMax() != ladder.qMax()) {
      problems.add(
          "the artifact states Q_max "
              + m.declaredQMax()
              + " but its steps give "
              + ladder.qMax()
              + " (the steps win)");
    }
    List<Rung> unusable = ladder.unusable();
    String usable =
        String.format(
            Locale.ROOT,
            "%d of %d steps usable%s",
            ladder.rungs().size() - unusable.size(),
            ladder.rungs().size(),
            unusable.isEmpty()
                ? ""
                : " (excluded: "
                    + unusable.stream()
                        .map(r -> r.concurrency() + " " + r.unusableReason())
                        .collect(Collectors.joining(", "))
                    + ")");
    boolean setup = !problems.isEmpty();
    Optional<Ladder.ServiceTime> service = ladder.serviceTime();
    if (service.isPresent() && service.get().atConcurrency() > 1) {
      problems.add(
          f(
              "S_mean was read at N=%d, where requests may wait behind each other (the ladder has"
                  + " no N=1 rung), so it may be longer than the uncontended service time",
              service.get().atConcurrency()));
    }
    if (service.isPresent() && service.get().unusableWindow() != null) {
      usable +=
          "; S_mean read at N=1 although its window was not usable ("
              + service.get().unusableWindow()
              + "): one worker never queues, so its requests still time the uncontended service";
    }
    List<RungDrift> drifted = m.drift().stream().filter(RungDrift::beyond).toList();
    for (RungDrift r : drifted) {
      problems.add(
          "the ladder drifted, so Q_max "
              + ladder.qMax()
              + " measured the machine as much as the endpoint: "
              + r.describe());
    }
    List<BracketDrift> brackets = bracketDrift(m);
    for (BracketDrift b : brackets) {
      problems.add(
          "the rungs that decided Q_max "
              + ladder.qMax()
              + " measured the machine as much as the endpoint: "
              + b.describe());
    }
    if (problems.isEmpty()) {
      return Finding.ok(
          "measurement_trust",
          "Q_max was measured with autoscaling frozen and capacity pinned, against a container"
              + " with no queue bound, so it reads as one instance's own limit; "
              + usable
              + withinTolerance(m.drift()));
    }
    List<String> fixes = new ArrayList<>();
    if (setup) {
      fixes.add(
          "re-run `tts-bench qmax`: it freezes scaling, pins capacity to 1 and refuses a bounded"
              + " container queue");
    }
    if (service.isPresent() && service.get().atConcurrency() > 1) {
      fixes.add("measure N=1 too (`--rungs 1,...`): it times the service with nothing queued");
    }
    if (!drifted.isEmpty() || !brackets.isEmpty()) {
      fixes.add(
          (setup ? "run it" : "re-run `tts-bench qmax`")
              + " on a quiet machine (nothing else running, no CPU steal): rungs measured early"
              + " and late in a drifting ladder are not comparable, so do not plan on this Q_max");
    }
    return Finding.warn(
        "measurement_trust", String.join("; ", problems) + "; " + usable, String.join("; ", fixes));
  }

  /**
   * The bisection-bracket checks beyond tolerance, for ladders that carry a drift check (its
   * throughput tolerance applies); none for older ladders, whose findings stay as they were.
   */
  static List<BracketDrift> bracketDrift(Measurement m) {
    if (m.drift().isEmpty()) {
      return List.of();
    }
    return BracketDrift.of(m.ladder(), m.drift().getFirst().throughputTolerancePct()).stream()
        .filter(BracketDrift::beyond)
        .toList();
  }

  /** The drift checks that passed, as a clause; empty when the ladder was not re-measured. */
  private static String withinTolerance(List<RungDrift> checks) {
    if (checks.isEmpty()) {
      return "";
    }
    return "; the ladder did not drift: "
        + checks.stream()
            .map(r ->
                f(
                    "N=%d re-measured %s moved throughput %+.1f %% and p95 %+.1f %%, within"
                        + " %s %% and %s %%",
                    r.concurrency(),
                    r.when(),
                    r.throughputChangePct(),
                    r.p95ChangePct(),
                    tolerance(r.throughputTolerancePct()),
                    tolerance(r.p95TolerancePct())))
            .collect(Collectors.joining("; "));
  }

  private static String tolerance(double pct) {
    return pct == Math.rint(pct) ? String.valueOf((long) pct) : f("%.1f", pct);
  }

  static Finding curveRepeatability(Derivation d) {
    Ladder ladder = d.m().ladder();
    if (ladder.runs() < 2) {
      return new Finding(
          "curve_repeatability",
          Verdict.SUPPRESSED,
          "Q_max "
              + ladder.qMax()
              + " came from a single ladder pass, so whether it repeats was never measured",
          "re-run `tts-bench qmax --runs 2` or more to get a spread");
    }
    String detail =
        String.format(
            Locale.ROOT,
            "Q_max per run %s: spread %.1f%% ((max - min)/max); the minimum, %d, is planned on",
            ladder.qMaxPerRun(),
            100 * ladder.qMaxSpread(),
            ladder.qMax());
    if (ladder.qMaxSpread() > 0.20) {
      return Finding.warn(
          "curve_repeatability",
          detail + ", but runs disagree by more than 20%",
          "find what differs between runs (neighbours, throttling, text pool) and re-measure");
    }
    return Finding.ok("curve_repeatability", detail);
  }

  static Finding sloBudget(Derivation d) {
    double slo = d.s().sloMs() / 1000.0;
    double sP95 = d.m().sP95Seconds();
    if (sP95 >= slo) {
      return new Finding(
          "slo_budget",
          Verdict.INFEASIBLE,
          f(
              "S_p95 %.3fs >= SLO %.3fs: an unqueued request already misses the promise, so no"
                  + " queue depth, fleet size or policy can meet it",
              sP95, slo),
          "use a faster model or instance type, shorter requests, or a looser SLO");
    }
    String detail =
        f(
            "W_max %.3fs = SLO %.3fs - S_p95 %.3fs: the queueing budget is derived from the"
                + " promise, not configured beside it",
            d.timing().wMaxSeconds(), slo, sP95);
    if (d.timing().wMaxSeconds() < sP95) {
      return Finding.warn(
          "slo_budget",
          detail + ", and it is shorter than one service time, so almost any queueing breaks it",
          "loosen the SLO or speed up service so a request can wait at least one service time");
    }
    return Finding.ok("slo_budget", detail);
  }

  static Finding invocationCeiling(Derivation d) {
    double deadline = d.timing().requestDeadlineSeconds();
    double ceiling = d.s().ceilingSeconds();
    String detail =
        f(
            "a queued request finishes within %.3fs (W_max %.3fs + S_p95 %.3fs); the invocation"
                + " ceiling is %.0fs",
            deadline, d.timing().wMaxSeconds(), d.m().sP95Seconds(), ceiling);
    if (deadline > ceiling) {
      return new Finding(
          "invocation_ceiling",
          Verdict.INFEASIBLE,
          detail + ", so the platform hangs up on requests the queue admitted",
          f("lower the SLO to at most %.0fs", ceiling));
    }
    return Finding.ok("invocation_ceiling", detail);
  }

  static Finding queueDepth(Derivation d) {
    Ladder ladder = d.m().ladder();
    if (!(d instanceof Derivation.Scalable z)) {
      return new Finding(
          "queue_depth",
          Verdict.INFEASIBLE,
          f(
              "no usable rung met the %.0f ms SLO%s, so there is no Q_max to bound the queue at",
              d.s().sloMs(),
              ladder.lowestRungTtfabP95Ms().stream()
                  .mapToObj(p -> f(" (lowest usable rung p95 %.1f ms)", p))
                  .findFirst()
                  .orElse(" (no rung was usable)")),
          "loosen the SLO, speed up service, or measure lower concurrencies");
    }
    double implied = z.timing().wMaxSeconds() / z.m().sMeanSeconds();
    String implication =
        f(
            ". The SLO's wait budget independently implies about %.0f (W_max %.2fs / S_mean"
                + " %.3fs); past the bound a request cannot reach first byte in time, so it is"
                + " refused rather than served late",
            implied, z.timing().wMaxSeconds(), z.m().sMeanSeconds());
    if (!ladder.bracketed()) {
      return Finding.warn(
          "queue_depth",
          "queue_max_depth "
              + z.qMax()
              + " = Q_max, but no usable rung above it breached the SLO, so "
              + z.qMax()
              + " is only a lower bound"
              + implication,
          "extend the ladder (`tts-bench qmax --max-concurrency N`) until a usable rung breaches");
    }
    return Finding.ok(
        "queue_depth",
        "queue_max_depth "
            + z.qMax()
            + " = Q_max, bracketed from above by a usable rung that breached the SLO"
            + (ladder.refined()
                ? " and refined to +/-1"
                : " (not refined: exact to the rung spacing)")
            + implication);
  }

  static Finding thresholdUnits(Derivation d) {
    if (!(d instanceof Derivation.Scalable z)) {
      return new Finding(
          "threshold_units", Verdict.SUPPRESSED, "no Q_max, so no thresholds to convert", null);
    }
    Plan.Thresholds th = z.thresholds();
    UnitsRatio max = th.ratioMax();
    UnitsRatio avg = th.ratioAverage();
    if (max == null || avg == null) {
      return new Finding(
          "threshold_units",
          Verdict.SUPPRESSED,
          "the ladder measured no server-side concurrency at a usable rung ("
              + (max == null ? "Maximum" : "Average")
              + " missing), so the client-unit thresholds cannot be converted to the deployed"
              + " metric (ConcurrentRequestsPerModel, Maximum over 10 s for scale-out, Average"
              + " over 60 s for scale-in). No thresholds are emitted and deploy attaches no"
              + " scaling: a client-unit number deployed against a Maximum statistic once scaled"
              + " a fleet to its maximum on one request",
          "re-run `tts-bench qmax` on a platform that reports ConcurrentRequestsPerModel");
    }
    return Finding.ok(
        "threshold_units",
        f(
            "scaling_target_value %.3f = C_scale_max %.2f x %.3f (ConcurrentRequestsPerModel"
                + " Maximum / client mean in-flight, measured at rung %d); scale_in_threshold %.3f"
                + " = C_scale_min %.2f x %.3f (Average / client mean, rung %d). The converted"
                + " figures deploy; the occupancy is what was measured",
            th.scalingTargetValue(),
            th.cScaleMax(),
            max.ratio(),
            max.atConcurrency(),
            th.scaleInThreshold(),
            th.cScaleMin(),
            avg.ratio(),
            avg.atConcurrency()));
  }

  static Finding surgeSurvival(Derivation d) {
    if (!(d instanceof Derivation.Scalable z)) {
      return new Finding(
          "surge_survival", Verdict.SUPPRESSED, "no Q_max, so no surge to simulate", null);
    }
    SurgeSimulation sim = z.surge().simulation();
    double p = z.surge().shedProbability();
    double cScaleMax = z.thresholds().cScaleMax();
    Double recommended = z.surge().recommendedCScaleMax();
    String detail =
        f(
            "holding C_scale_max %.2f of Q_max %d is %.1f%% utilisation as M/M/1 (%.1f%% as M/G/1"
                + " with the measured service CV %.2f). A %.2fx surge from there (%.2f req/s"
                + " arriving against %.2f req/s of measured capacity) filled the queue to Q_max"
                + " before a replacement arrived (T %.0fs) in %.1f%% of %d simulated surges"
                + " (service times: %s)",
            cScaleMax,
            z.qMax(),
            100 * Utilization.mm1(cScaleMax),
            100 * Utilization.mg1(cScaleMax, sim.serviceCv()),
            sim.serviceCv(),
            z.s().surgeRatio(),
            sim.surgeRatePerSecond(cScaleMax),
            z.throughput().capacityPerSecond(),
            z.t().plannedSeconds(),
            100 * p,
            sim.trials(),
            z.m().serviceTimes().origin());
    String fix =
        recommended == null
            ? f(
                "no threshold of 1 or more keeps the shed probability under %.0f%%: shorten"
                    + " T_total or hold standing headroom in instances",
                100 * z.s().shedTarget())
            : f(
                "scale out at %.2f concurrent requests or fewer (recommended_c_scale_max: P <="
                    + " %.0f%%), shorten T_total, or hold standing headroom in instances",
                recommended, 100 * z.s().shedTarget());
    if (p > Scenario.SURGE_WARN_LINE) {
      return Finding.warn(
          "surge_survival",
          detail
              + f(
                  ", past the %.0f%% line. Surge headroom in queue slots is a stock; surviving a"
                      + " surge is about drain rate, a flow",
                  100 * Scenario.SURGE_WARN_LINE),
          fix);
    }
    return Finding.ok("surge_survival", detail);
  }

  static Finding scaleInSafety(Derivation d) {
    if (!(d instanceof Derivation.Scalable z)) {
      return new Finding(
          "scale_in_safety", Verdict.SUPPRESSED, "no Q_max, so no thresholds to judge", null);
    }
    Plan.Thresholds th = z.thresholds();
    Integer minSafe = z.fleet().minSafeInstances();
    if (minSafe == null) {
      return Finding.warn(
          "scale_in_safety",
          f(
              "C_scale_min %.2f is not below C_scale_max %.2f (surge ratio %.2f): every scale-in"
                  + " lands on the scale-out threshold, at any fleet size",
              th.cScaleMin(), th.cScaleMax(), z.s().surgeRatio()),
          "use a surge ratio above 1 so the thresholds separate");
    }
    double r = th.cScaleMax() / th.cScaleMin();
    int floor = z.fleet().minInstances();
    String rule =
        f(
            "scale-in is only stable from %d instances up: removing one of N multiplies each"
                + " survivor's concurrency by N/(N-1), which must stay at or under %.2f (="
                + " C_scale_max %.2f / C_scale_min %.2f)",
            minSafe, r, th.cScaleMax(), th.cScaleMin());
    if (floor < minSafe) {
      return Finding.warn(
          "scale_in_safety",
          rule
              + f(
                  ". This plan's floor is %d, so a %d->%d scale-in leaves the survivors at %.2f",
                  floor, floor + 1, floor, th.cScaleMin() * (floor + 1) / floor),
          f(
              "raise --min-floor to %d, or accept the flap that the %ds scale-in cooldown damps"
                  + " but does not remove",
              minSafe, z.timing().scaleInCooldownSeconds()));
    }
    return Finding.ok("scale_in_safety", rule + f("; this plan's floor is %d", floor));
  }

  static Finding fleetCost(Derivation d) {
    if (!(d instanceof Derivation.Scalable z)) {
      return new Finding("fleet_cost", Verdict.SUPPRESSED, "no Q_max, so no fleet to cost", null);
    }
    int peakInstances = z.fleet().peakInstances();
    double factor = (double) peakInstances / Math.max(1, z.peakInstancesAtQMax());
    return Finding.ok(
        "fleet_cost",
        f(
            "reserving headroom for a %.2fx surge costs %.2fx a fleet held at Q_max (%d instances"
                + " at C_scale_max %.2f against %d at Q_max %d for %s)%s",
            z.s().surgeRatio(),
            factor,
            peakInstances,
            z.thresholds().cScaleMax(),
            z.peakInstancesAtQMax(),
            z.qMax(),
            z.s().peak().describe(),
            z.s().peak() instanceof Load.RequestRate && factor < 1.05
                ? "; for a rate, instances follow throughput, and a saturated engine completes"
                    + " about as many requests per second at either concurrency"
                : ""));
  }

  static Finding fleetCapacity(Derivation d) {
    if (!(d instanceof Derivation.Scalable z)) {
      return new Finding(
          "fleet_capacity",
          Verdict.SUPPRESSED,
          f("no Q_max, so the fleet stays at the floor of %d", d.s().minFloor()),
          null);
    }
    Plan.Fleet fleet = z.fleet();
    double cScaleMax = z.thresholds().cScaleMax();
    Derivation.Throughput x = z.throughput();
    String trough =
        z.s().trough() == null
            ? f("no trough stated, floor %d", fleet.minInstances())
            : f("trough %s needs %d", z.s().trough().describe(), fleet.troughInstances());
    if (z.s().peak() instanceof Load.Streams streams) {
      return Finding.ok(
          "fleet_capacity",
          f(
              "peak %s / C_scale_max %.2f per instance = %d instances; %s",
              streams.describe(), cScaleMax, fleet.peakInstances(), trough));
    }
    String detail =
        f(
            "peak %s / X(C_scale_max %.2f) = %.2f req/s %s per instance = %d instances; %s. The"
                + " published sizing ceil(lambda x S_mean / C_scale_max) = ceil(%s x %.4f / %.2f)"
                + " gives %d, which treats one instance as serving %.1f requests at once",
            z.s().peak().describe(),
            cScaleMax,
            x.atCScaleMaxPerSecond(),
            x.measured() ? "measured" : "assumed (1/S_mean)",
            fleet.peakInstances(),
            trough,
            Load.Numbers.compact(z.s().peak().amount()),
            z.m().sMeanSeconds(),
            cScaleMax,
            fleet.naiveMaxInstances(),
            cScaleMax);
    if (!x.measured()) {
      return Finding.warn(
          "fleet_capacity",
          detail + "; the ladder recorded no throughput, so a serial engine was assumed",
          "re-run `tts-bench qmax`, which records achieved_rps on every rung");
    }
    if (x.extrapolated()) {
      return Finding.warn(
          "fleet_capacity",
          detail
              + "; C_scale_max lies outside the measured rungs, so X was held flat from the"
              + " nearest one",
          "measure rungs on both sides of C_scale_max");
    }
    return Finding.ok("fleet_capacity", detail);
  }

  static Finding provisionStage(Derivation d) {
    ScaleOutTime t = d.t();
    if (!t.measured()) {
      return Finding.warn(
          "provision_stage",
          f(
              "T %.1fs was assumed (--assume-t-total), not measured, and every cooldown and the"
                  + " surge simulation are planned against it",
              t.plannedSeconds()),
          "measure it: `tts-bench ttotal --qmax <qmax artifact>`");
    }
    ScaleOutTime.Stage dominant =
        t.stages().stream().max((a, b) -> Double.compare(a.seconds(), b.seconds())).orElse(null);
    String detail =
        f(
            "T %.1fs planned against = %.1fs measured (desired_set -> traffic_recovered) + %.1fs"
                + " policy detection lag, bounded from the deployed policy (alarm periods x"
                + " evaluation periods + cooldown) because a forced scale-out bypasses it",
            t.plannedSeconds(), t.measuredSeconds(), t.policyLagBoundSeconds());
    if (dominant != null) {
      detail +=
          f(
              ". Dominant stage: %s -> %s, %.1fs (%.0f%% of T)",
              dominant.from(),
              dominant.to(),
              dominant.seconds(),
              100 * dominant.seconds() / t.plannedSeconds());
    }
    if (!t.missingStages().isEmpty()) {
      return Finding.warn(
          "provision_stage",
          detail + "; stages not observed: " + String.join(", ", t.missingStages()),
          "re-run `tts-bench ttotal` where the platform exposes every stage marker");
    }
    return Finding.ok("provision_stage", detail);
  }

  private static String f(String format, @Nullable Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
