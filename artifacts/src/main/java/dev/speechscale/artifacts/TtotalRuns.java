package dev.speechscale.artifacts;

import dev.speechscale.capacity.Percentiles;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Every scale-out of a {@code ttotal --runs N} measurement (N &gt; 1), with the spread of T_total.
 * A single-run artifact carries none (its top level is the one run, as before). Derived values
 * (each run's total and durations, the statistics) are recomputed from the runs' timelines on every
 * read.
 *
 * @param count how many scale-outs were timed
 * @param topLevel which statistic's run the artifact's top level ({@code t_total_s}, {@code
 *     timeline}, {@code durations}) repeats: {@code max}, so a reader that knows nothing of runs
 *     sizes against the slowest scale-out seen
 * @param topLevelRun the index of that run
 * @param tTotalMinS the fastest run's T_total
 * @param tTotalMedianS the median (the mean of the middle two for an even count)
 * @param tTotalP90S the nearest-rank 90th percentile (the ⌈0.9 N⌉-th fastest; the slowest for N ≤
 *     10)
 * @param tTotalMaxS the slowest run's T_total
 * @param boundedRuns runs whose {@code traffic_recovered} was not observed (their T_total is a
 *     floor)
 * @param runs every run, in the order measured
 */
public record TtotalRuns(
    Integer count,
    String topLevel,
    Integer topLevelRun,
    Double tTotalMinS,
    Double tTotalMedianS,
    Double tTotalP90S,
    Double tTotalMaxS,
    Integer boundedRuns,
    List<Run> runs) {

  public TtotalRuns {
    runs = runs == null ? List.of() : List.copyOf(runs);
  }

  /**
   * One timed scale-out.
   *
   * @param runIndex 0-based, in the order measured
   * @param tTotalS desired_set → traffic_recovered
   * @param tTotalBounded true only when traffic_recovered was not observed
   * @param timeline its stages
   * @param durations its consecutive stage durations
   * @param missingStages its stages not observed
   * @param notes what a reader should know about this run
   * @param probe its probe's figures
   */
  public record Run(
      int runIndex,
      Double tTotalS,
      @Nullable Boolean tTotalBounded,
      List<TtotalArtifact.TimelineEntry> timeline,
      List<TtotalArtifact.StageDuration> durations,
      List<String> missingStages,
      List<String> notes,
      Map<String, Object> probe) {
    public Run {
      timeline = timeline == null ? List.of() : List.copyOf(timeline);
      durations = durations == null ? List.of() : List.copyOf(durations);
      missingStages = missingStages == null ? List.of() : List.copyOf(missingStages);
      notes = notes == null ? List.of() : List.copyOf(notes);
      probe = probe == null ? Map.of() : probe;
    }

    /** A run as measured by one single-run artifact. */
    static Run of(int index, TtotalArtifact one) {
      return new Run(
          index,
          one.tTotalS(),
          one.tTotalBounded(),
          one.timeline(),
          one.durations(),
          one.missingStages(),
          one.notes(),
          one.probe());
    }
  }

  /** Which run a statistic of T_total picks. */
  public enum Statistic implements Labelled {
    /** The slowest run. */
    MAX,
    /** The nearest-rank 90th percentile: the ⌈0.9 N⌉-th fastest run. */
    P90,
    /** The nearest-rank median: the ⌈0.5 N⌉-th fastest run. */
    MEDIAN;

    /**
     * Parses a label ({@code max}, {@code p90}, {@code median}), naming them when it is not one.
     */
    public static Statistic ofLabel(String label) {
      Statistic s = Labels.ofLabelOrNull(Statistic.class, label);
      if (s == null) {
        throw new IllegalArgumentException(
            "T_total statistic '" + label + "' is not one of " + Labels.labels(Statistic.class));
      }
      return s;
    }

    /** The 1-based rank among {@code n} sorted values this statistic picks. */
    int rank(int n) {
      return switch (this) {
        case MAX -> n;
        case P90 -> Percentiles.nearestRank(n, 0.9);
        case MEDIAN -> Percentiles.nearestRank(n, 0.5);
      };
    }
  }

  /** The runs (each already derived from its timeline) with the statistics recomputed. */
  static TtotalRuns of(List<Run> runs) {
    List<Run> sorted = sorted(runs);
    int n = runs.size();
    double median =
        n % 2 == 1
            ? sorted.get(n / 2).tTotalS()
            : (sorted.get(n / 2 - 1).tTotalS() + sorted.get(n / 2).tTotalS()) / 2;
    return new TtotalRuns(
        n,
        Statistic.MAX.label(),
        pick(runs, Statistic.MAX).runIndex(),
        sorted.get(0).tTotalS(),
        median,
        sorted.get(Statistic.P90.rank(n) - 1).tTotalS(),
        sorted.get(n - 1).tTotalS(),
        (int) runs.stream().filter(r -> Boolean.TRUE.equals(r.tTotalBounded())).count(),
        runs);
  }

  /** The run a statistic picks (nearest rank; ties go to the later run). */
  static Run pick(List<Run> runs, Statistic statistic) {
    List<Run> sorted = sorted(runs);
    return sorted.get(statistic.rank(sorted.size()) - 1);
  }

  private static List<Run> sorted(List<Run> runs) {
    List<Run> sorted = new ArrayList<>(runs);
    sorted.sort(Comparator.comparingDouble(Run::tTotalS).thenComparingInt(Run::runIndex));
    return sorted;
  }
}
