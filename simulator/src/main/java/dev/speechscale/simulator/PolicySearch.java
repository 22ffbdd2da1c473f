package dev.speechscale.simulator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The search: screen the space on a fleet {@code scale} times smaller over traffic {@code scale}
 * times lighter (the fitted trace's shape, same seed), confirm the cheapest finalists that meet the
 * goal in full on the fitted trace, then simulate the recommendation and the rivals in full on the
 * held-out day (another seed, the shape shifted in time). Each result is seeded; runs go in
 * parallel on {@code threads} threads and the result does not depend on how many.
 */
public final class PolicySearch {
  private PolicySearch() {}

  /**
   * What the search reads.
   *
   * @param model the instance
   * @param fitted the given trace, simulated as given for the confirmation
   * @param fittedTable its rates per minute (screening, floors, the held-out day)
   * @param options the simulation's options; its seed is the fitted day's
   * @param goal what the recommendation must meet
   * @param plan the plan's numbers (the start and the rivals)
   * @param minSafe the plan's smallest stable floor (a value of min tried)
   * @param heldOutSeed the held-out day's seed
   * @param heldOutShiftSeconds how much later the held-out day runs the shape (whole minutes)
   * @param scale the screening's fleet divisor (1: screen in full)
   * @param finalists how many screened candidates are confirmed in full, at most
   * @param floorLeadSeconds how long before its hour a floor fires
   * @param threads simulations run at once
   */
  public record Inputs(
      InstanceModel model,
      Traffic fitted,
      RateTable fittedTable,
      FleetSimulator.Options options,
      SearchGoal goal,
      Policies.PlanNumbers plan,
      int minSafe,
      long heldOutSeed,
      long heldOutShiftSeconds,
      int scale,
      int finalists,
      long floorLeadSeconds,
      int threads) {
    public Inputs {
      if (scale < 1) {
        throw new SimulatorException("--screen-scale (" + scale + ") must be at least 1");
      }
      if (finalists < 1) {
        throw new SimulatorException("--finalists (" + finalists + ") must be at least 1");
      }
      if (threads < 1) {
        throw new SimulatorException("threads (" + threads + ") must be at least 1");
      }
    }
  }

  /**
   * A candidate tried, with its screening.
   *
   * @param name {@code c1}, {@code c2}, ... in the order tried
   * @param dimension the setting it varied ({@code start} for the plan's policy)
   * @param candidate the policy
   * @param screened its screened day
   */
  public record Tried(String name, String dimension, Candidate candidate, Outcome screened) {}

  /**
   * A policy with its screened and full day on one trace.
   *
   * @param name the candidate's or rival's name
   * @param deployable whether the platform can deploy it
   * @param notDeployable why not, or empty
   * @param screened the screening
   * @param full the full simulation
   */
  public record Compared(
      String name, boolean deployable, String notDeployable, Outcome screened, Outcome full) {}

  /**
   * What the search found.
   *
   * @param tried every candidate screened, in order
   * @param rivalsScreened the rivals' screenings on the fitted trace, for the frontier
   * @param frontier the frontier of the screenings (candidates and deployable rivals)
   * @param finalists the finalists' screened and full days on the fitted trace
   * @param recommended the recommended candidate's name
   * @param recommendation the recommended policy
   * @param meetsGoal whether it met the goal in full on the fitted trace
   * @param heldOut the recommendation (first) and the rivals in full on the held-out day
   * @param heldOutTable the held-out day's rates
   */
  public record Result(
      List<Tried> tried,
      Map<String, Outcome> rivalsScreened,
      List<Frontier.Point> frontier,
      List<Compared> finalists,
      String recommended,
      Candidate recommendation,
      boolean meetsGoal,
      List<Compared> heldOut,
      RateTable heldOutTable) {}

  /**
   * Instances the busiest minute needs at the screening's scale, at least, for {@link #autoScale}.
   */
  public static final int SCREEN_PEAK_INSTANCES = 25;

  /**
   * The largest fleet divisor that leaves the busiest minute of {@code table} at least {@value
   * #SCREEN_PEAK_INSTANCES} instances at {@code perInstancePerSecond} each (1 when it needs fewer).
   */
  public static int autoScale(RateTable table, double perInstancePerSecond) {
    double peak = 0;
    for (double r : table.perSecond()) {
      peak = Math.max(peak, r);
    }
    return Math.max(1, (int) Math.floor(peak / perInstancePerSecond / SCREEN_PEAK_INSTANCES));
  }

  /** Runs the search; {@code progress} gets one line per stage. */
  public static Result run(Inputs in, Consumer<String> progress) {
    int k = in.scale();
    Traffic screenFitted = in.fittedTable().scaled(1.0 / k).traffic("fitted/" + k);
    RateTable heldTable = in.fittedTable().shifted(in.heldOutShiftSeconds());
    Traffic heldOut = heldTable.traffic("held-out");
    Traffic screenHeld = heldTable.scaled(1.0 / k).traffic("held-out/" + k);
    FleetSimulator.Options fitOpt = in.options();
    FleetSimulator.Options heldOpt = withSeed(fitOpt, in.heldOutSeed());
    List<Rival> rivals = Rival.of(in.plan(), k);
    double perInstance = in.model().saturatedPerSecond();
    double[] hourly = in.fittedTable().hourlyLowest();
    java.util.function.UnaryOperator<Candidate> floors =
        c ->
            c.withFloors(
                c.floorFraction(),
                Floors.derive(
                    hourly,
                    c.floorFraction(),
                    perInstance,
                    in.floorLeadSeconds(),
                    c.min(),
                    c.max()));
    SearchSpace space = SearchSpace.around(in.plan(), in.minSafe(), FloorRules.supported());
    ExecutorService pool = Executors.newFixedThreadPool(in.threads());
    try {
      Runner run = new Runner(in.model(), pool);
      // the rivals' screenings first: the frontier places them
      List<Outcome> rs =
          run.all(
              rivals.stream().map(r -> new Job(screenFitted, r.screened(), fitOpt, k)).toList());
      Map<String, Outcome> rivalsScreened = new LinkedHashMap<>();
      for (int i = 0; i < rivals.size(); i++) {
        rivalsScreened.put(rivals.get(i).name(), rs.get(i));
      }
      progress.accept("screened the 4 rivals at 1/" + k);
      Map<String, Tried> cache = new LinkedHashMap<>();
      Candidate start = Rival.planned(Policies.planned(in.plan()), in.plan().maxInstances());
      screen(List.of(start), "start", cache, run, screenFitted, fitOpt, k);
      Candidate best = start;
      for (SearchSpace.Dimension d : space.dimensions(floors)) {
        List<Candidate> moves = d.moves().apply(best);
        screen(moves, d.name(), cache, run, screenFitted, fitOpt, k);
        for (Candidate c : moves) {
          if (better(tried(cache, c), tried(cache, best), in.goal())) {
            best = c;
          }
        }
        progress.accept(
            "screened "
                + d.name()
                + ": "
                + cache.size()
                + " candidates, best "
                + tried(cache, best).name());
      }
      List<Tried> tried = List.copyOf(cache.values());
      // the frontier of what can be deployed: the candidates and the deployable rivals
      List<Frontier.Point> points = new ArrayList<>();
      for (Tried t : tried) {
        points.add(
            new Frontier.Point(t.name(), t.screened().instanceHours(), t.screened().attainment()));
      }
      for (int i = 0; i < rivals.size(); i++) {
        if (rivals.get(i).deployable()) {
          Outcome o = rs.get(i);
          points.add(new Frontier.Point(rivals.get(i).name(), o.instanceHours(), o.attainment()));
        }
      }
      List<Frontier.Point> frontier = Frontier.of(points);
      // finalists: the cheapest that meet the goal on the screen (else the best attaining). Their
      // full fitted days, their held-out days and the rivals' held-out days are independent of
      // which one is chosen, so they run as one batch (the held-out days of the finalists not
      // chosen are simulated and not reported: with the default of one finalist, none)
      List<Tried> ranked = new ArrayList<>(tried);
      ranked.sort((a, b) -> better(a, b, in.goal()) ? -1 : better(b, a, in.goal()) ? 1 : 0);
      List<Tried> fin = ranked.subList(0, Math.min(in.finalists(), ranked.size()));
      int f = fin.size();
      List<Job> jobs = new ArrayList<>();
      for (Tried t : fin) {
        jobs.add(new Job(in.fitted(), t.candidate().policy(t.name()), fitOpt, 1));
      }
      for (Tried t : fin) {
        jobs.add(new Job(heldOut, t.candidate().policy(t.name()), heldOpt, 1));
      }
      for (Rival r : rivals) {
        jobs.add(new Job(heldOut, r.full(), heldOpt, 1));
      }
      for (Tried t : fin) {
        jobs.add(new Job(screenHeld, t.candidate().screened(t.name(), k), heldOpt, k));
      }
      for (Rival r : rivals) {
        jobs.add(new Job(screenHeld, r.screened(), heldOpt, k));
      }
      List<Outcome> out = run.all(jobs);
      int rv = rivals.size();
      List<Compared> finalists = new ArrayList<>();
      for (int i = 0; i < f; i++) {
        finalists.add(new Compared(fin.get(i).name(), true, "", fin.get(i).screened(), out.get(i)));
      }
      progress.accept(
          "confirmed "
              + f
              + (f == 1 ? " finalist" : " finalists")
              + " in full on the fitted trace; simulated it and the rivals on the held-out day");
      int chosenIndex = 0;
      for (int i = 1; i < f; i++) {
        Outcome x = finalists.get(i).full();
        Outcome y = finalists.get(chosenIndex).full();
        boolean mx = x.meets(in.goal());
        boolean my = y.meets(in.goal());
        if (mx && (!my || x.instanceHours() < y.instanceHours())
            || !mx && !my && x.attainment() > y.attainment()) {
          chosenIndex = i;
        }
      }
      Compared chosen = finalists.get(chosenIndex);
      Candidate rec = fin.get(chosenIndex).candidate();
      List<Compared> heldOutRows = new ArrayList<>();
      heldOutRows.add(
          new Compared(
              chosen.name(),
              true,
              "",
              out.get(2 * f + rv + chosenIndex),
              out.get(f + chosenIndex)));
      for (int i = 0; i < rv; i++) {
        Rival r = rivals.get(i);
        heldOutRows.add(
            new Compared(
                r.name(),
                r.deployable(),
                r.notDeployable(),
                out.get(3 * f + rv + i),
                out.get(2 * f + i)));
      }
      return new Result(
          tried,
          rivalsScreened,
          frontier,
          finalists,
          chosen.name(),
          rec,
          chosen.full().meets(in.goal()),
          heldOutRows,
          heldTable);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Whether {@code a} ranks before {@code b}: meeting the goal first, then the cheaper; of two that
   * miss it, the higher attainment, then the lower shed; ties keep the order tried.
   */
  static boolean better(Tried a, Tried b, SearchGoal goal) {
    Outcome x = a.screened();
    Outcome y = b.screened();
    boolean mx = x.meets(goal);
    boolean my = y.meets(goal);
    if (mx != my) {
      return mx;
    }
    if (mx) {
      return x.instanceHours() < y.instanceHours();
    }
    if (x.attainment() != y.attainment()) {
      return x.attainment() > y.attainment();
    }
    return x.shed() < y.shed();
  }

  private static void screen(
      List<Candidate> cs,
      String dimension,
      Map<String, Tried> cache,
      Runner run,
      Traffic traffic,
      FleetSimulator.Options opt,
      int k) {
    List<Candidate> fresh = new ArrayList<>();
    for (Candidate c : cs) {
      if (!cache.containsKey(c.key()) && fresh.stream().noneMatch(f -> f.key().equals(c.key()))) {
        fresh.add(c);
      }
    }
    int next = cache.size() + 1;
    List<Job> jobs = new ArrayList<>();
    for (int i = 0; i < fresh.size(); i++) {
      jobs.add(new Job(traffic, fresh.get(i).screened("c" + (next + i), k), opt, k));
    }
    List<Outcome> out = run.all(jobs);
    for (int i = 0; i < fresh.size(); i++) {
      Candidate c = fresh.get(i);
      cache.put(c.key(), new Tried("c" + (next + i), dimension, c, out.get(i)));
    }
  }

  private static Tried tried(Map<String, Tried> cache, Candidate c) {
    Tried t = cache.get(c.key());
    if (t == null) {
      throw new IllegalStateException("not screened: " + c.key());
    }
    return t;
  }

  private static FleetSimulator.Options withSeed(FleetSimulator.Options o, long seed) {
    return new FleetSimulator.Options(
        o.sloMs(),
        o.metricPublicationDelay(),
        seed,
        o.preRoll(),
        o.hostSpeeds(),
        o.initialServed());
  }

  private record Job(Traffic traffic, Policy policy, FleetSimulator.Options options, int scale) {}

  private record Runner(InstanceModel model, ExecutorService pool) {
    List<Outcome> all(List<Job> jobs) {
      List<Future<PolicyResult>> fs = new ArrayList<>();
      for (Job j : jobs) {
        fs.add(
            pool.submit(() ->
                FleetSimulator.run(model, j.traffic(), j.policy(), j.options(), (a, b, c) -> {})));
      }
      List<Outcome> out = new ArrayList<>();
      try {
        for (int i = 0; i < jobs.size(); i++) {
          out.add(Outcome.of(fs.get(i).get(), jobs.get(i).scale()));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SimulatorException("interrupted while searching");
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        throw new IllegalStateException(e.getCause());
      }
      return out;
    }
  }
}
