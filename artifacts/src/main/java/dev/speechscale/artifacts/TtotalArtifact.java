package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.speechscale.capacity.ScaleOutTime;
import dev.speechscale.platform.ScaleOutStage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A measured scale-out: when each stage happened, from {@code desired_set} (the clock starts) to
 * {@code traffic_recovered} (the clock stops).
 *
 * <p>{@code durations} are consecutive observed stages in semantic order and sum exactly (in
 * milliseconds: every time is truncated to the millisecond first, so the differences telescope) to
 * {@code t_total_s}; {@link #withDerived()} recomputes them, the total, {@code
 * t_total_with_policy_bound_s} and {@code t_total_bounded} from the timeline.
 *
 * <p>It opens with the {@link Header} every artifact shares, unwrapped into the JSON's top level.
 *
 * @param header schema version, kind and stamp
 * @param trigger how the scale-out was caused ({@code force-desired})
 * @param tTotalS desired_set → traffic_recovered, seconds
 * @param policyLagBoundS alarm period × evaluation periods + scale-out cooldown, read from the
 *     deployed policy
 * @param tTotalWithPolicyBoundS T: what the planner sizes against
 * @param tTotalBounded true only when {@code traffic_recovered} was not observed, so {@code
 *     t_total_s} is not a measured desired_set → traffic_recovered span; derived from the timeline
 *     on every read (an older file's copy of the last entry's {@code bounded} flag is ignored),
 *     never from a stage's own {@code bounded} flag
 * @param timeline every stage observed, with its source
 * @param durations consecutive stage durations
 * @param missingStages stages not observed
 * @param notes what a reader should know
 * @param runs every scale-out of a {@code --runs N} measurement (N &gt; 1) with the spread of
 *     T_total; absent for a single run, whose file keeps the shape it always had. The top level
 *     then repeats the slowest run ({@link TtotalRuns#topLevel})
 * @param newInstance how the scale-out's new instance served against the old one, window by window
 *     since in service ({@link NewInstanceService}; pooled over the runs of {@code --runs N});
 *     absent where the platform does not name the instance behind a response, and in files written
 *     before it was measured
 */
public record TtotalArtifact(
    @JsonUnwrapped Header header,
    String model,
    String endpoint,
    String trigger,
    DeployedConfig deployedConfig,
    double tTotalS,
    double policyLagBoundS,
    @Nullable Double tTotalWithPolicyBoundS,
    @Nullable Boolean tTotalBounded,
    List<TimelineEntry> timeline,
    List<StageDuration> durations,
    List<String> missingStages,
    List<String> notes,
    Map<String, Object> probe,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable TtotalRuns runs,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable NewInstanceService newInstance)
    implements Artifact.Sectioned {

  /**
   * The stages of a scale-out in the order they must happen ({@link ScaleOutStage}'s wire names).
   */
  public static final List<String> STAGES =
      ScaleOutStage.wireNames(List.of(ScaleOutStage.values()));

  public TtotalArtifact {
    timeline = timeline == null ? List.of() : List.copyOf(timeline);
    durations = durations == null ? List.of() : List.copyOf(durations);
    missingStages = missingStages == null ? List.of() : List.copyOf(missingStages);
    notes = notes == null ? List.of() : List.copyOf(notes);
    probe = probe == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(probe));
  }

  /**
   * One measured scale-out: its timeline as observed, with everything that follows from it (the
   * stage durations, the missing stages, T_total and its bound) derived by {@link #withDerived()};
   * {@code runs} stays absent (one run; {@link #combine} adds them for more).
   */
  public static TtotalArtifact measured(
      Header header,
      String model,
      String endpoint,
      String trigger,
      DeployedConfig deployedConfig,
      double policyLagBoundS,
      List<TimelineEntry> timeline,
      List<String> notes,
      Map<String, Object> probe,
      @Nullable NewInstanceService newInstance) {
    return new TtotalArtifact(
            header,
            model,
            endpoint,
            trigger,
            deployedConfig,
            1, // t_total_s until the timeline has both ends (withDerived)
            policyLagBoundS,
            null,
            null,
            timeline,
            List.of(),
            List.of(),
            notes,
            probe,
            null,
            newInstance)
        .withDerived();
  }

  /**
   * One artifact from the single-run artifacts of {@code ttotal --runs N}: every run kept under
   * {@code runs}, the top level repeating the slowest run (policy lag bound and provenance of the
   * last). One run gives that run unchanged.
   */
  public static TtotalArtifact combine(List<TtotalArtifact> singles) {
    if (singles.isEmpty()) {
      throw new IllegalArgumentException("no ttotal run to combine");
    }
    List<TtotalArtifact> derived = singles.stream().map(TtotalArtifact::withDerived).toList();
    if (derived.size() == 1) {
      return derived.get(0);
    }
    List<TtotalRuns.Run> runs = new ArrayList<>();
    for (int i = 0; i < derived.size(); i++) {
      runs.add(TtotalRuns.Run.of(i, derived.get(i)));
    }
    TtotalArtifact top = derived.get(TtotalRuns.pick(runs, TtotalRuns.Statistic.MAX).runIndex());
    TtotalArtifact last = derived.get(derived.size() - 1);
    int topIndex = derived.indexOf(top);
    List<String> notes = new ArrayList<>(top.notes());
    notes.add(
        derived.size()
            + " scale-outs timed, restored to the starting capacity between them; the top level"
            + " repeats the slowest (run "
            + topIndex
            + "), every run is under runs");
    return last.withTiming(
            top.tTotalS,
            null,
            null,
            top.timeline,
            List.of(),
            List.of(),
            notes,
            top.probe,
            TtotalRuns.of(runs),
            NewInstanceService.pooled(
                derived.stream()
                    .map(TtotalArtifact::newInstance)
                    .filter(java.util.Objects::nonNull)
                    .toList()))
        .withDerived();
  }

  /**
   * One observed stage.
   *
   * @param stage a name from {@link #STAGES} (or {@code load_applied}, before the clock)
   * @param at when it happened
   * @param source what observed it (API call, log marker, probe)
   * @param bounded true when {@code at} is an upper bound
   * @param note anything a reader should know, or {@code null} when nothing
   */
  public record TimelineEntry(
      String stage, Instant at, String source, Boolean bounded, @Nullable String note) {}

  /**
   * The time between two consecutive observed stages.
   *
   * @param from the earlier stage
   * @param to the later stage
   * @param seconds the duration (millisecond resolution)
   * @param bounded whether either end is an upper bound
   * @param share fraction of t_total_s
   */
  public record StageDuration(
      String from, String to, double seconds, Boolean bounded, Double share) {}

  /** This artifact with {@code fresh} as its {@code new_instance}. */
  public TtotalArtifact withNewInstance(@Nullable NewInstanceService fresh) {
    return with(notes, fresh);
  }

  /** This artifact with {@code notes} in place of its own. */
  public TtotalArtifact withNotes(List<String> notes) {
    return with(notes, newInstance);
  }

  private TtotalArtifact with(List<String> notes, @Nullable NewInstanceService fresh) {
    return withTiming(
        tTotalS,
        tTotalWithPolicyBoundS,
        tTotalBounded,
        timeline,
        durations,
        missingStages,
        notes,
        probe,
        runs,
        fresh);
  }

  /** The artifact with total, durations and missing stages recomputed from the timeline. */
  public TtotalArtifact withDerived() {
    Map<String, TimelineEntry> byStage = new TreeMap<>();
    for (TimelineEntry e : timeline) {
      if (STAGES.contains(e.stage()) && e.at() != null) {
        byStage.put(e.stage(), e);
      }
    }
    TimelineEntry start = byStage.get(ScaleOutStage.DESIRED_SET.wireName());
    TimelineEntry end = byStage.get(ScaleOutStage.TRAFFIC_RECOVERED.wireName());
    boolean bounded = end == null;
    if (byStage.isEmpty()) {
      return derived(tTotalS, bounded, durations, missingStages);
    }
    if (start == null || end == null) {
      return derived(tTotalS, bounded, durations, missing(byStage));
    }
    long totalMs = end.at().toEpochMilli() - start.at().toEpochMilli();
    List<StageDuration> computed = new ArrayList<>();
    TimelineEntry previous = null;
    for (String stage : STAGES) {
      TimelineEntry e = byStage.get(stage);
      if (e == null) {
        continue;
      }
      if (previous != null) {
        long ms = e.at().toEpochMilli() - previous.at().toEpochMilli();
        computed.add(
            new StageDuration(
                previous.stage(),
                stage,
                ms / 1000.0,
                Boolean.TRUE.equals(previous.bounded()) || Boolean.TRUE.equals(e.bounded()),
                totalMs == 0 ? 0.0 : (double) ms / totalMs));
      }
      previous = e;
    }
    double total = totalMs / 1000.0;
    return derived(total, bounded, computed, missing(byStage));
  }

  private TtotalArtifact derived(
      double total, Boolean bounded, List<StageDuration> stages, List<String> missing) {
    TtotalRuns derivedRuns = null;
    if (runs != null && !runs.runs().isEmpty()) {
      List<TtotalRuns.Run> each = new ArrayList<>();
      for (TtotalRuns.Run r : runs.runs()) {
        TtotalArtifact one =
            withTiming(
                    r.tTotalS() == null ? 0 : r.tTotalS(),
                    null,
                    r.tTotalBounded(),
                    r.timeline(),
                    r.durations(),
                    r.missingStages(),
                    r.notes(),
                    r.probe(),
                    null,
                    null)
                .withDerived();
        each.add(TtotalRuns.Run.of(r.runIndex(), one));
      }
      derivedRuns = TtotalRuns.of(each);
    }
    return withTiming(
        total,
        total + policyLagBoundS,
        bounded,
        timeline,
        stages,
        missing,
        notes,
        probe,
        derivedRuns,
        newInstance);
  }

  /**
   * The one copy: this scale-out's header, model, endpoint, trigger, fingerprint and policy lag
   * bound, with these timings.
   */
  private TtotalArtifact withTiming(
      double tTotalS,
      @Nullable Double tTotalWithPolicyBoundS,
      @Nullable Boolean tTotalBounded,
      List<TimelineEntry> timeline,
      List<StageDuration> durations,
      List<String> missingStages,
      List<String> notes,
      Map<String, Object> probe,
      @Nullable TtotalRuns runs,
      @Nullable NewInstanceService newInstance) {
    return new TtotalArtifact(
        header,
        model,
        endpoint,
        trigger,
        deployedConfig,
        tTotalS,
        policyLagBoundS,
        tTotalWithPolicyBoundS,
        tTotalBounded,
        timeline,
        durations,
        missingStages,
        notes,
        probe,
        runs,
        newInstance);
  }

  private static List<String> missing(Map<String, TimelineEntry> byStage) {
    return STAGES.stream().filter(s -> !byStage.containsKey(s)).toList();
  }

  /**
   * The planner's view at a statistic of the runs: the run it picks (nearest rank), or the one run
   * of a single-run artifact.
   */
  public ScaleOutTime scaleOutTime(TtotalRuns.Statistic statistic) {
    if (runs == null || runs.runs().size() < 2) {
      return scaleOutTime();
    }
    TtotalRuns.Run r = TtotalRuns.pick(runs.runs(), statistic);
    return scaleOutTime(r.tTotalS(), r.durations(), r.missingStages());
  }

  /** How many scale-outs were timed: 1 for a single-run artifact. */
  public int runCount() {
    return runs == null || runs.runs().isEmpty() ? 1 : runs.runs().size();
  }

  /** The planner's view. */
  public ScaleOutTime scaleOutTime() {
    return scaleOutTime(tTotalS, durations, missingStages);
  }

  /** The planner's view of one timing: this artifact's or one of its runs'. */
  private ScaleOutTime scaleOutTime(
      double tTotal, List<StageDuration> stages, List<String> missing) {
    return new ScaleOutTime(
        tTotal,
        policyLagBoundS,
        true,
        stages.stream()
            .map(d ->
                new ScaleOutTime.Stage(
                    d.from(), d.to(), d.seconds(), Boolean.TRUE.equals(d.bounded())))
            .toList(),
        missing);
  }

  /** The default file name: {@code ttotal-<model>-<trigger>-<slug>.json}. */
  public String defaultFileName() {
    return ArtifactNames.ttotal(model, trigger, DeployedConfig.slugOf(deployedConfig));
  }
}
