package dev.speechscale.chain;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.StartupDelaySamples;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.report.SearchView;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.Frontier;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.Outcome;
import dev.speechscale.simulator.PolicySearch;
import dev.speechscale.simulator.RateTable;
import dev.speechscale.simulator.SearchGoal;
import dev.speechscale.simulator.Traffic;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * {@code quickstart}'s search step: {@code tts-bench search} on the run's own qmax, ttotal and plan
 * artifacts over a short trace at this fleet's scale ({@link #trace}: a day's shape pressed into 30
 * min, 0.2 X up to 1.6 X and back, so the second instance is needed; held out 5 min later with the
 * next seed), the default goal (99.9 % within the SLO, 0.1 % shed), over the plan's family of
 * policies only ({@link PolicySearch.Families#PLANNED}: what the quickstart then validates live and
 * replays; {@code tts-bench search} alone also ranks InvocationsPerInstance tracking). It writes
 * the trace, the searched plan artifact (the chosen policy in the plan's fields, scheduled floors
 * included when chosen, and the search's record), which the quickstart then deploys, validates and
 * replays, and the search's summary.
 */
final class QuickstartSearch {
  /** The fitted trace's length. */
  static final Duration DURATION = Duration.ofMinutes(30);

  /** How much later the held-out trace runs the shape. */
  static final Duration HELD_OUT_SHIFT = Duration.ofMinutes(5);

  /** The trace's lowest rate, in X (one instance's throughput at the plan's C_scale_max). */
  static final double TROUGH_X = 0.2;

  /** The trace's highest rate, in X: two instances' worth, short of the quickstart's max. */
  static final double PEAK_X = 1.6;

  /** The fitted trace's seed; the held-out one's is the next. */
  static final long SEED = 1;

  /** The server's default deadline (MAX_REQUEST_AGE_S). */
  static final Duration MAX_REQUEST_AGE = Duration.ofSeconds(56);

  private QuickstartSearch() {}

  /**
   * What the step left: what it found, or why it did not run.
   *
   * @param found the search, or {@code null} when it did not run
   * @param notRun why not, or {@code null}
   */
  record Attempt(@Nullable Found found, @Nullable String notRun) {
    /** The closing summary's line. */
    String line() {
      return found != null ? found.line() : "search not run: " + notRun;
    }
  }

  /**
   * What the step found.
   *
   * @param planFile the searched plan artifact
   * @param plan it, read back
   * @param result the search
   * @param record what it was given
   * @param view the report's section
   * @param summary the table {@code tts-bench search} prints
   * @param commandLine the line that reruns it
   * @param seconds how long the search took (wall time)
   */
  record Found(
      Path planFile,
      PlanArtifact plan,
      PolicySearch.Result result,
      SearchPlan.Record record,
      SearchView view,
      String summary,
      String commandLine,
      double seconds) {

    /** One line for the closing summary. */
    String line() {
      Outcome chosen = result.heldOut().getFirst().full();
      return String.format(
          Locale.ROOT,
          "search chose %s%s: held out %.2f %% within the SLO, %.2f %% shed, %.2f instance-hours"
              + " (plan %.2f); deployed and replayed live; searched in %.1f s",
          result.recommended(),
          result.meetsGoal() ? "" : " (no candidate met the goal; the closest)",
          chosen.attainment() * 100,
          chosen.shed() * 100,
          chosen.instanceHours(),
          heldOut("plan").instanceHours(),
          seconds);
    }

    private Outcome heldOut(String name) {
      return result.heldOut().stream()
          .filter(c -> c.name().equals(name))
          .findFirst()
          .orElse(result.heldOut().getFirst())
          .full();
    }
  }

  /**
   * Runs the search and writes {@code plan-search-<model>.json} and {@code search-<model>.txt} into
   * {@code dir}.
   *
   * @param threads simulations at once (the result does not depend on it)
   * @param clock times the search
   */
  static Found run(
      QmaxArtifact q,
      Path qmaxFile,
      TtotalArtifact t,
      Path ttotalFile,
      PlanArtifact plan,
      Path planFile,
      Path dir,
      Instant createdAt,
      int threads,
      dev.speechscale.platform.NanoClock clock,
      Consumer<String> progress) {
    long t0 = clock.nanoTime();
    List<StartupDelaySamples.Input> ttotals =
        List.of(new StartupDelaySamples.Input(t, ttotalFile.toString()));
    InstanceModel model =
        SearchModel.instance(q, qmaxFile.toString(), ttotals, plan, MAX_REQUEST_AGE);
    double x =
        java.util.Objects.requireNonNullElse(
            plan.throughputAtCScaleMaxRps(), model.saturatedPerSecond());
    Path traceFile = dir.resolve("trace-search.csv");
    List<String> lines = trace(x);
    ArtifactCodec.writeText(traceFile, String.join("\n", lines) + "\n");
    Traffic traffic = Traffic.csv(traceFile.getFileName().toString(), lines::stream);
    RateTable table = RateTable.count(traffic, SEED);
    SearchGoal goal = new SearchGoal(0.999, 0.001);
    int scale = PolicySearch.autoScale(table, model.saturatedPerSecond());
    long heldSeed = SEED + 1;
    PolicySearch.Result r =
        PolicySearch.run(
            new PolicySearch.Inputs(
                model,
                traffic,
                table,
                new FleetSimulator.Options(
                    q.sloMs(), Duration.ZERO, SEED, new FleetSimulator.PreRoll.Window()),
                goal,
                SearchModel.planNumbers(plan, model),
                plan.minSafeInstances() != null ? plan.minSafeInstances() : plan.minInstances(),
                heldSeed,
                HELD_OUT_SHIFT.toSeconds(),
                scale,
                1,
                SearchModel.floorLeadSeconds(plan.tTotalS()),
                threads,
                // the quickstart deploys its choice, then validates it live and replays it, and
                // both check the plan's family only: an InvocationsPerInstance choice would leave
                // them driving a per-minute invocation target as concurrency
                PolicySearch.Families.PLANNED),
            progress);
    SearchPlan.Record rec =
        new SearchPlan.Record(
            goal,
            traffic.description(),
            sha256(lines),
            SEED,
            heldSeed,
            HELD_OUT_SHIFT.toSeconds(),
            scale);
    Path out = dir.resolve("plan-search-" + plan.model() + ".json");
    String commandLine =
        "bin/tts-bench search "
            + String.join(
                " ",
                new Args()
                    .add(Flags.QMAX, qmaxFile)
                    .add(Flags.TTOTAL, ttotalFile)
                    .add(Flags.PLAN, planFile)
                    .add(Flags.TRACE, traceFile)
                    .add(Flags.HELD_OUT_SHIFT, HELD_OUT_SHIFT)
                    .add(Flags.METRIC_DELAY, Duration.ZERO)
                    .add(Flags.FAMILIES, "planned")
                    .add(Flags.OUTPUT, out)
                    .words());
    Map<String, Object> parameters = new java.util.LinkedHashMap<>();
    parameters.put("step", "search");
    parameters.put("plan", planFile.toString());
    Provenance provenance = Provenance.capture(commandLine.substring("bin/".length()), parameters);
    ArtifactCodec.writeText(out, SearchPlan.json(planFile, r, rec, provenance, createdAt));
    String summary = SearchSummary.render(r, rec);
    ArtifactCodec.writeText(dir.resolve("search-" + plan.model() + ".txt"), summary);
    double seconds = (clock.nanoTime() - t0) / 1e9;
    return new Found(
        out,
        ArtifactCodec.readPlan(out),
        r,
        rec,
        view(r, rec, dir.relativize(out).toString()),
        summary,
        commandLine,
        seconds);
  }

  /** The report's section of search {@code r}. */
  static SearchView view(PolicySearch.Result r, SearchPlan.Record rec, String planFile) {
    List<SearchView.Point> candidates = new ArrayList<>();
    for (PolicySearch.Tried c : r.tried()) {
      candidates.add(point(c.name(), c.screened()));
    }
    List<SearchView.Point> rivals = new ArrayList<>();
    r.rivalsScreened().forEach((name, o) -> rivals.add(point(name, o)));
    List<SearchView.Point> frontier = new ArrayList<>();
    for (Frontier.Point p : r.frontier()) {
      frontier.add(new SearchView.Point(p.name(), p.instanceHours(), p.attainment()));
    }
    List<SearchView.Row> held = new ArrayList<>();
    for (PolicySearch.Compared c : r.heldOut()) {
      Outcome o = c.full();
      held.add(
          new SearchView.Row(
              c.name(),
              c.deployable(),
              o.attainment(),
              o.shed(),
              o.p95Ms(),
              o.instanceHours(),
              o.scaleOuts(),
              o.scaleIns()));
    }
    return new SearchView(
        rec.goal().describe(),
        String.format(
            Locale.ROOT,
            "%s (seed %d; held out: seed %d, %+d s)",
            rec.trace(),
            rec.seed(),
            rec.heldOutSeed(),
            rec.heldOutShiftSeconds()),
        r.recommended(),
        r.recommendation().description(),
        r.meetsGoal(),
        candidates,
        rivals,
        frontier,
        held,
        planFile,
        r.recommendation().targetValue(),
        r.recommendation().scaleInThreshold());
  }

  private static SearchView.Point point(String name, Outcome o) {
    return new SearchView.Point(name, o.instanceHours(), o.attainment());
  }

  /**
   * The fitted trace: a day's shape pressed into {@link #DURATION}, one rate a minute from {@link
   * #TROUGH_X} X at the start up to {@link #PEAK_X} X at the middle and back (a raised cosine, as
   * {@code --pattern diurnal} is over 24 h), in {@code tts-bench}'s trace CSV.
   */
  static List<String> trace(double x) {
    long minutes = DURATION.toMinutes();
    List<String> lines = new ArrayList<>();
    lines.add("time_s,rps");
    lines.add(
        String.format(
            Locale.ROOT,
            "# tts-bench quickstart's search trace: %.2f..%.2f req/s (%.1f..%.1f x X %.2f req/s),"
                + " peak at %d s",
            rounded(TROUGH_X * x),
            rounded(PEAK_X * x),
            TROUGH_X,
            PEAK_X,
            x,
            minutes * 30));
    for (long m = 0; m < minutes; m++) {
      double share = (1 - Math.cos(2 * Math.PI * (m + 0.5) / minutes)) / 2;
      lines.add(
          String.format(
              Locale.ROOT,
              "%d,%.2f",
              m * 60,
              rounded((TROUGH_X + (PEAK_X - TROUGH_X) * share) * x)));
    }
    lines.add(String.format(Locale.ROOT, "%d,0", minutes * 60));
    return lines;
  }

  private static double rounded(double v) {
    return BigDecimal.valueOf(v).setScale(2, RoundingMode.HALF_UP).doubleValue();
  }

  /** SHA-256 of the trace file's bytes, as {@code tts-bench search} digests a {@code --trace}. */
  private static String sha256(List<String> lines) {
    try {
      return java.util.HexFormat.of()
          .formatHex(
              java.security.MessageDigest.getInstance("SHA-256")
                  .digest(
                      (String.join("\n", lines) + "\n")
                          .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }
}
