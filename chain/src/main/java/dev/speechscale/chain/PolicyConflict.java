package dev.speechscale.chain;

import dev.speechscale.artifacts.FirstByteEvidences;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.PlanSaturation;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ScaleInAlarmChoice;
import dev.speechscale.artifacts.ScaleOutColdStart;
import dev.speechscale.artifacts.StartupDelaySamples;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.capacity.PlanVerdict;
import dev.speechscale.capacity.Planner;
import dev.speechscale.capacity.Verdict;
import dev.speechscale.scaling.ScaleInAlarm;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.Policies;
import dev.speechscale.simulator.Policy;
import dev.speechscale.simulator.PolicyResult;
import dev.speechscale.simulator.Progress;
import dev.speechscale.simulator.StartupDelays;
import dev.speechscale.simulator.Traffic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The {@code policy_conflict} finding (issue 35): {@code plan} simulates its own policy pair,
 * target tracking for scale-out plus a step scale-in alarm, at a step surge after a quiet spell,
 * and chooses the scale-in alarm it writes.
 *
 * <p>A step scale-in policy is not blocked by target tracking (Application Auto Scaling evaluates
 * them independently), so a scale-in alarm still in ALARM from the quiet spell removes the instance
 * target tracking has just added. Each {@link ScaleInAlarm} is simulated at the surge and over a
 * quiet-down; the first that removes no instance during the surge and whose quiet-down costs no
 * more instance-hours than {@link ScaleInAlarm#AVERAGE_60S}, or sheds fewer requests there (then
 * the Average's saving is a fleet left short, not a cheaper way to serve the same load), is written
 * ({@link ScaleInAlarm#MAXIMUM_10S} first: the tracking alarm's own statistic and period, which a
 * fresh scale-out cannot leave in ALARM). Both runs are seeded and small: about 30,000 and 660,000
 * arrivals on the Kokoro example.
 *
 * <p>The surge: {@value #QUIET_SHARE} × X(C_scale_max) per floor instance for {@value #SURGE_AT_S}
 * s, then that plus {@value #SURGE_INSTANCES} × X(C_scale_max) (on the Kokoro example 4.5 → 40.2
 * req/s, the 5 → 40), the alarms warm from a history at the quiet rate. The quiet-down: up
 * from the quiet rate to {@value #QUIET_DOWN_INSTANCES} × X(C_scale_max) over 30 min, held 30 min,
 * down to the quiet rate over 60 min and held there 30 min; its instance-hours are counted from the
 * start of the way down.
 */
final class PolicyConflict {
  static final double QUIET_SHARE = 0.25;
  static final double SURGE_INSTANCES = 2;
  static final long SURGE_AT_S = 600;
  static final double QUIET_DOWN_INSTANCES = 8;
  static final long DOWN_FROM_S = 3600;
  static final long QUIET_DOWN_S = 9000;
  static final long SEED = 1;
  static final Duration MAX_REQUEST_AGE = Duration.ofSeconds(56);
  static final long FIGHT_WINDOW_S = 30;

  /** The scale-ins of {@code r} decided within {@link #FIGHT_WINDOW_S} after a scale-out. */
  static List<PolicyResult.ScalingEvent> fights(PolicyResult r) {
    List<PolicyResult.ScalingEvent> out = new ArrayList<>();
    long lastOut = Long.MIN_VALUE;
    for (PolicyResult.ScalingEvent e : r.events()) {
      if (e.to() > e.from()) {
        lastOut = e.decidedAtSeconds();
      } else if (e.to() < e.from()
          && lastOut != Long.MIN_VALUE
          && e.decidedAtSeconds() - lastOut <= FIGHT_WINDOW_S) {
        out.add(e);
      }
    }
    return out;
  }

  private PolicyConflict() {}

  /**
   * One alarm's two runs.
   *
   * @param alarm the scale-in alarm
   * @param surge the step surge after the quiet spell
   * @param quietDown the quiet-down
   */
  record Run(ScaleInAlarm alarm, PolicyResult surge, PolicyResult quietDown) {
    /**
     * Instances removed by scale-ins that undid a scale-out: decided within {@value
     * #FIGHT_WINDOW_S} s (the tracking alarm's 3 periods of 10 s) after a scale-out, while its
     * instances were still being started. A later scale-in of a fleet the surge over-provisioned is
     * no fight.
     */
    int removedInSurge() {
      return fights(surge).stream().mapToInt(e -> e.from() - e.to()).sum();
    }

    /** Seconds from the surge's start to the first instance a scale-out added in service. */
    OptionalLong nextInServiceS() {
      return surge.events().stream()
          .filter(e -> e.decidedAtSeconds() >= SURGE_AT_S && e.to() > e.from())
          .flatMapToLong(e -> e.inServiceAtSeconds().stream())
          .map(s -> s - SURGE_AT_S)
          .min();
    }

    /** In-service instance-hours of the quiet-down from the start of its way down. */
    double eveningInstanceHours() {
      return quietDown.minutes().stream()
              .filter(m -> m.minute() * 60 >= DOWN_FROM_S)
              .mapToDouble(PolicyResult.Minute::meanInService)
              .sum()
          / 60;
    }

    /** Requests shed over the whole quiet-down (its way up holds the pair's fights too). */
    long eveningShed() {
      return quietDown.shed();
    }
  }

  /**
   * What the plan was derived from, the instance the simulation models.
   *
   * @param qmax the qmax artifact
   * @param qmaxFile its path as given
   * @param ttotal the ttotal artifact, or {@code null} when T was assumed
   * @param ttotalFile its path, or {@code null}
   * @param tTotalSeconds T as planned, the start-up delay without a ttotal artifact
   */
  record Measured(
      QmaxArtifact qmax,
      String qmaxFile,
      @Nullable TtotalArtifact ttotal,
      @Nullable String ttotalFile,
      double tTotalSeconds) {}

  /**
   * What was found and chosen.
   *
   * @param entry the finding as the plan records it
   * @param chosen the alarm the plan writes
   * @param why the config line's comment
   */
  record Outcome(PlanArtifact.FindingEntry entry, ScaleInAlarmChoice chosen, String why) {}

  /**
   * The plan with the finding and the chosen alarm; {@code plan} unchanged but for a suppressed
   * finding when it deploys no scaling.
   */
  static PlanArtifact apply(PlanArtifact plan, Measured measured) {
    Outcome o = find(plan, measured);
    List<PlanArtifact.FindingEntry> findings = new ArrayList<>(plan.findings());
    findings.add(o.entry());
    findings.sort(
        Comparator.comparingInt((PlanArtifact.FindingEntry f) -> -f.verdict().severity())
            .thenComparingInt(f -> Planner.FINDING_ORDER.indexOf(f.name())));
    return plan.withScaleInAlarm(o.chosen(), verdict(findings), findings, o.why());
  }

  private static PlanVerdict verdict(List<PlanArtifact.FindingEntry> findings) {
    if (findings.stream().anyMatch(f -> f.verdict() == Verdict.INFEASIBLE)) {
      return PlanVerdict.infeasible();
    }
    int warnings = (int) findings.stream().filter(f -> f.verdict() == Verdict.WARN).count();
    return warnings == 0 ? PlanVerdict.ok() : PlanVerdict.warn(warnings);
  }

  static Outcome find(PlanArtifact plan, Measured measured) {
    if (plan.infeasible() || !plan.hasUnitsConversion()) {
      return new Outcome(
          PlanArtifact.FindingEntry.withoutRecommendation(
              "policy_conflict",
              Verdict.SUPPRESSED,
              "not simulated: the plan deploys no scaling ("
                  + (plan.infeasible() ? "INFEASIBLE" : "no measured units conversion")
                  + ")"),
          ScaleInAlarmChoice.DEFAULT,
          "not simulated: this plan deploys no scaling");
    }
    InstanceModel model = model(plan, measured);
    QmaxArtifact qmax = measured.qmax();
    Policies.PlanNumbers numbers = numbers(plan, model);
    double x = model.saturatedPerSecond();
    double quiet = QUIET_SHARE * x * plan.minInstances();
    double surge = quiet + SURGE_INSTANCES * x;
    Traffic step = Traffic.step(surge, quiet, Duration.ofSeconds(3 * SURGE_AT_S));
    Traffic down = quietDown(quiet, Math.max(quiet * 2, QUIET_DOWN_INSTANCES * x));
    FleetSimulator.Options options =
        new FleetSimulator.Options(
            qmax.sloMs(), Duration.ZERO, SEED, new FleetSimulator.PreRoll.Window());
    Run today = run(ScaleInAlarm.AVERAGE_60S, model, numbers, step, down, options);
    Run fixed = run(ScaleInAlarm.MAXIMUM_10S, model, numbers, step, down, options);
    return outcome(today, fixed, quiet, surge, plan);
  }

  static Run run(
      ScaleInAlarm alarm,
      InstanceModel model,
      Policies.PlanNumbers numbers,
      Traffic step,
      Traffic down,
      FleetSimulator.Options options) {
    Policy p = Policies.planned(numbers, alarm, "plan:" + alarm.label());
    return new Run(
        alarm,
        FleetSimulator.run(model, step, p, options, Progress.none()),
        FleetSimulator.run(model, down, p, options, Progress.none()));
  }

  private static Outcome outcome(
      Run today, Run fixed, double quiet, double surge, PlanArtifact plan) {
    String at =
        f(
            "at a step from %.1f to %.1f req/s after %d s quiet (%d..%d instances, seed %d)",
            quiet, surge, SURGE_AT_S, plan.minInstances(), plan.maxInstances(), SEED);
    String fight = describe(today);
    String other = describe(fixed);
    String evening =
        f(
            "quiet-down instance-hours %.2f (maximum_10s) against %.2f (average_60s), shed %d"
                + " against %d",
            fixed.eveningInstanceHours(),
            today.eveningInstanceHours(),
            fixed.eveningShed(),
            today.eveningShed());
    long lost = secondsLost(today, fixed);
    long shedAdded = today.surge().shed() - fixed.surge().shed();
    String cost =
        today.removedInSurge() == 0
            ? ""
            : f(
                "; the fight costs %d s to the next instance and %d more requests shed",
                lost, shedAdded);
    // it must still scale in: no more instance-hours on the quiet-down than today's pair, unless
    // today's pair saves them by shedding more there (its scale-ins then leave the fleet short,
    // which is no cheaper way to hold the same load)
    boolean fixedHolds =
        fixed.removedInSurge() == 0
            && (fixed.eveningInstanceHours() <= today.eveningInstanceHours() + 1e-9
                || fixed.eveningShed() < today.eveningShed());
    boolean todayHolds = today.removedInSurge() == 0;
    ScaleInAlarm chosen = fixedHolds || !todayHolds ? ScaleInAlarm.MAXIMUM_10S : today.alarm();
    Verdict verdict = fixedHolds || todayHolds ? Verdict.OK : Verdict.WARN;
    String detail =
        f(
            "%s: average_60s (the pair before issue 35) %s; maximum_10s %s%s; %s; writes"
                + " scale_in_alarm: %s",
            at, fight, other, cost, evening, chosen.label());
    String recommendation =
        verdict == Verdict.OK
            ? null
            : "no scale-in alarm both keeps the surge's scale-out and scales in as cheaply; raise"
                + " the scale-in cooldown or set scale_in_alarm by hand";
    String why =
        chosen == ScaleInAlarm.MAXIMUM_10S
            ? f(
                "Maximum 10 s x 3: no scale-in undoes the surge's scale-out (average_60s removed"
                    + " %d)",
                today.removedInSurge())
            : "Average 60 s x 3: it did not fight at the simulated surge";
    return new Outcome(
        new PlanArtifact.FindingEntry("policy_conflict", verdict, detail, recommendation),
        ScaleInAlarmChoice.ofLabel(chosen.label()),
        why);
  }

  private static long secondsLost(Run today, Run fixed) {
    OptionalLong a = today.nextInServiceS();
    OptionalLong b = fixed.nextInServiceS();
    return a.isPresent() && b.isPresent() ? a.getAsLong() - b.getAsLong() : 0;
  }

  private static String describe(Run r) {
    int removed = r.removedInSurge();
    OptionalLong next = r.nextInServiceS();
    String inService =
        next.isPresent()
            ? f("the next instance in service at +%d s", next.getAsLong())
            : "no instance added in service";
    if (removed == 0) {
      return f(
          "removes no instance within %d s of a scale-out, %s, %d shed",
          FIGHT_WINDOW_S, inService, r.surge().shed());
    }
    PolicyResult.ScalingEvent out =
        r.surge().events().stream()
            .filter(e -> e.decidedAtSeconds() >= SURGE_AT_S && e.to() > e.from())
            .findFirst()
            .orElseThrow();
    PolicyResult.ScalingEvent in = fights(r.surge()).getFirst();
    return f(
        "undoes the scale-out (%d instance(s) removed: %d -> %d at +%d s, %d -> %d at +%d s),"
            + " %s, %d shed",
        removed,
        out.from(),
        out.to(),
        out.decidedAtSeconds() - SURGE_AT_S,
        in.from(),
        in.to(),
        in.decidedAtSeconds() - SURGE_AT_S,
        inService,
        r.surge().shed());
  }

  /** Up over 30 min, held 30 min, down over 60 min, quiet 30 min: a minute's rate per row. */
  static Traffic quietDown(double quiet, double high) {
    List<String> rows = new ArrayList<>();
    rows.add("time_s,rps");
    for (long m = 0; m < QUIET_DOWN_S / 60; m++) {
      long s = m * 60;
      double rate;
      if (s < 1800) {
        rate = quiet + (high - quiet) * s / 1800.0;
      } else if (s < DOWN_FROM_S) {
        rate = high;
      } else if (s < DOWN_FROM_S + 3600) {
        rate = high - (high - quiet) * (s - DOWN_FROM_S) / 3600.0;
      } else {
        rate = quiet;
      }
      rows.add(f("%d,%.6f", s, rate));
    }
    rows.add(f("%d,%.6f", QUIET_DOWN_S, quiet));
    List<String> lines = List.copyOf(rows);
    return Traffic.csv("policy_conflict quiet-down", () -> Stream.of(lines.toArray(String[]::new)));
  }

  private static InstanceModel model(PlanArtifact plan, Measured measured) {
    QmaxArtifact qmax = measured.qmax();
    String qmaxFile = measured.qmaxFile();
    TtotalArtifact ttotal = measured.ttotal();
    String ttotalFile = measured.ttotalFile();
    List<StartupDelaySamples.Input> ttotals =
        ttotal == null || ttotalFile == null
            ? List.of()
            : List.of(new StartupDelaySamples.Input(ttotal, ttotalFile));
    StartupDelays delays =
        ttotals.isEmpty()
            ? StartupDelays.fixed(Duration.ofMillis(Math.round(measured.tTotalSeconds() * 1000)))
            : StartupDelaySamples.of(ttotals).delays();
    return InstanceModel.fromMeasurement(
            qmax.measurement(qmaxFile),
            FirstByteEvidences.of(qmax),
            PlanSaturation.of(plan),
            plan.queueMaxDepth(),
            MAX_REQUEST_AGE,
            delays)
        .withColdStart(ScaleOutColdStart.of(ttotals, qmax, qmaxFile))
        .withIdleStart(qmax.idleStartFactors(qmaxFile));
  }

  private static Policies.PlanNumbers numbers(PlanArtifact p, InstanceModel model) {
    return new Policies.PlanNumbers(
        p.minInstances(),
        p.maxInstances(),
        java.util.Objects.requireNonNull(p.scalingTargetValue()),
        java.util.Objects.requireNonNull(p.scaleInThreshold()),
        Duration.ofSeconds(p.scaleOutCooldownS()),
        Duration.ofSeconds(p.scaleInCooldownS()),
        p.cScaleMax(),
        0,
        p.inputs().measured().sMeanS(),
        model.saturatedPerSecond(),
        ScaleInAlarm.AVERAGE_60S);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
