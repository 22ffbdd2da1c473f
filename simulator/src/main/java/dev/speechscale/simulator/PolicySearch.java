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
 * times lighter (the fitted trace's shape, same seed), two coordinate descents (from the plan's
 * policy, and from InvocationsPerInstance target tracking at the {@code invocations} rival's
 * settings); confirm in full on the fitted trace the candidates whose screened attainment is within
 * the measured screening error of the goal ({@link Margin}, {@link #finalists}), cheapest first;
 * then simulate the recommendation and the rivals in full on the held-out day (another seed, the
 * shape shifted in time). Each result is seeded; runs go in parallel on {@code threads} threads and
 * the result does not depend on how many.
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
   * @param finalists how many screened candidates are confirmed in full, at most ({@link
   *     #finalists})
   * @param floorLeadSeconds how long before its hour a floor fires
   * @param threads simulations run at once
   * @param families which policy families are searched
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
      int threads,
      Families families) {
    public Inputs {
      java.util.Objects.requireNonNull(families, "families");
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

  /** Which policy families the descents search. */
  public enum Families {
    /**
     * The plan's family (ConcurrentRequestsPerModel target tracking with a step scale-in) and
     * InvocationsPerInstance target tracking: what {@code tts-bench search} ranks.
     */
    ALL,
    /**
     * The plan's family only: the policies {@code validate --live} and {@code replay} check live
     * (the quickstart deploys, validates and replays its choice). The InvocationsPerInstance rival
     * is still simulated for comparison.
     */
    PLANNED
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
      String name, boolean deployable, String notDeployable, Outcome screened, Outcome full) {
    /** A rival's pair. */
    static Compared of(Rival r, Outcome screened, Outcome full) {
      return new Compared(r.name(), r.deployable(), r.notDeployable(), screened, full);
    }
  }

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
   * @param margin the screening error the confirmation allowed for
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
      RateTable heldOutTable,
      Margin margin) {}

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
      // the held-out days (full and screened) of the two rivals the search starts from, plan and
      // invocations, go first: they do not depend on the search, and their screening error is the
      // confirmation margin. The other rivals' held-out days run beside the confirmation
      List<Future<Outcome>> heldFull = new ArrayList<>();
      List<Future<Outcome>> heldScreened = new ArrayList<>();
      for (int i = 0; i < rivals.size(); i++) {
        heldFull.add(null);
        heldScreened.add(null);
      }
      for (int i = 0; i < rivals.size(); i++) {
        if (MARGIN_RIVALS.contains(rivals.get(i).name())) {
          heldFull.set(i, run.submit(new Job(heldOut, rivals.get(i).full(), heldOpt, 1)));
          heldScreened.set(
              i, run.submit(new Job(screenHeld, rivals.get(i).screened(), heldOpt, k)));
        }
      }
      // the rivals' screenings on the fitted trace: the frontier places them
      List<Outcome> rs =
          run.all(
              rivals.stream().map(r -> new Job(screenFitted, r.screened(), fitOpt, k)).toList());
      Map<String, Outcome> rivalsScreened = new LinkedHashMap<>();
      for (int i = 0; i < rivals.size(); i++) {
        rivalsScreened.put(rivals.get(i).name(), rs.get(i));
      }
      progress.accept("screened the " + rivals.size() + " rivals at 1/" + k);
      Map<String, Tried> cache = new LinkedHashMap<>();
      // the plan's policy is the plan rival's, screened the same way: its screening is reused
      Candidate start = Rival.planned(Policies.planned(in.plan()), in.plan().maxInstances());
      Map<String, Integer> sameAsRival = new LinkedHashMap<>();
      sameAsRival.put(start.key(), rivalIndex(rivals, "plan"));
      cache.put(start.key(), new Tried("c1", "start", start, rs.get(rivalIndex(rivals, "plan"))));
      Candidate best =
          descend(
              start,
              space.dimensions(floors),
              cache,
              new Screening(run, screenFitted, fitOpt, k),
              in.goal(),
              progress);
      // then InvocationsPerInstance target tracking, from the invocations rival's settings (the
      // same policy as that rival: its screening is reused)
      if (in.families() == Families.ALL) {
        Candidate inv = space.invocationsStart(in.plan());
        if (!cache.containsKey(inv.key())) {
          int ri = rivalIndex(rivals, "invocations");
          sameAsRival.put(inv.key(), ri);
          cache.put(
              inv.key(), new Tried("c" + (cache.size() + 1), "invocations start", inv, rs.get(ri)));
        }
        descend(
            inv,
            space.invocationDimensions(floors),
            cache,
            new Screening(run, screenFitted, fitOpt, k),
            in.goal(),
            progress);
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
      List<Compared> marginPairs = new ArrayList<>();
      for (int i = 0; i < rivals.size(); i++) {
        if (heldFull.get(i) != null) {
          marginPairs.add(
              Compared.of(
                  rivals.get(i), run.await(heldScreened.get(i)), run.await(heldFull.get(i))));
        }
      }
      Margin margin = Margin.of(marginPairs);
      progress.accept("screening margin " + margin.describe());
      // finalists: the candidates within the margin of the goal on the screen, cheapest first
      List<Tried> fin = finalists(tried, in.goal(), margin.points(), in.finalists());
      int f = fin.size();
      List<Future<Outcome>> confirming = new ArrayList<>();
      for (Tried t : fin) {
        confirming.add(run.submit(new Job(in.fitted(), t.candidate().policy(t.name()), fitOpt, 1)));
      }
      // a lone finalist is the recommendation whatever its confirmation says: its held-out day
      // runs beside the confirmation instead of after it (the same jobs, so the same result)
      Future<Outcome> loneFull = null;
      Future<Outcome> loneScreened = null;
      if (f == 1 && !sameAsRival.containsKey(fin.getFirst().candidate().key())) {
        Tried t = fin.getFirst();
        loneFull = run.submit(new Job(heldOut, t.candidate().policy(t.name()), heldOpt, 1));
        loneScreened =
            run.submit(new Job(screenHeld, t.candidate().screened(t.name(), k), heldOpt, k));
      }
      for (int i = 0; i < rivals.size(); i++) {
        if (heldFull.get(i) == null) {
          heldFull.set(i, run.submit(new Job(heldOut, rivals.get(i).full(), heldOpt, 1)));
          heldScreened.set(
              i, run.submit(new Job(screenHeld, rivals.get(i).screened(), heldOpt, k)));
        }
      }
      List<Compared> finalists = new ArrayList<>();
      for (int i = 0; i < f; i++) {
        finalists.add(
            new Compared(
                fin.get(i).name(), true, "", fin.get(i).screened(), run.await(confirming.get(i))));
      }
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
      progress.accept(
          "confirmed "
              + f
              + (f == 1 ? " finalist" : " finalists")
              + " in full on the fitted trace, chose "
              + finalists.get(chosenIndex).name());
      Compared chosen = finalists.get(chosenIndex);
      Candidate rec = fin.get(chosenIndex).candidate();
      // its held-out day: a rival's when it is that rival's policy, else simulated now
      Integer same = sameAsRival.get(rec.key());
      Future<Outcome> recFull =
          same != null
              ? heldFull.get(same)
              : loneFull != null
                  ? loneFull
                  : run.submit(new Job(heldOut, rec.policy(chosen.name()), heldOpt, 1));
      Future<Outcome> recScreened =
          same != null
              ? heldScreened.get(same)
              : loneScreened != null
                  ? loneScreened
                  : run.submit(new Job(screenHeld, rec.screened(chosen.name(), k), heldOpt, k));
      List<Compared> heldOutRows = new ArrayList<>();
      heldOutRows.add(
          new Compared(chosen.name(), true, "", run.await(recScreened), run.await(recFull)));
      for (int i = 0; i < rivals.size(); i++) {
        heldOutRows.add(
            Compared.of(rivals.get(i), run.await(heldScreened.get(i)), run.await(heldFull.get(i))));
      }
      progress.accept(
          "simulated it and the rivals on the held-out day"
              + (same != null
                  ? " (it is the " + rivals.get(same).name() + " rival's policy)"
                  : ""));
      return new Result(
          tried,
          rivalsScreened,
          frontier,
          finalists,
          chosen.name(),
          rec,
          chosen.full().meets(in.goal()),
          heldOutRows,
          heldTable,
          margin);
    } finally {
      pool.shutdownNow();
    }
  }

  /** The rivals whose held-out screening error is the confirmation margin: the two starts. */
  static final List<String> MARGIN_RIVALS = List.of("plan", "invocations");

  private static int rivalIndex(List<Rival> rivals, String name) {
    for (int i = 0; i < rivals.size(); i++) {
      if (rivals.get(i).name().equals(name)) {
        return i;
      }
    }
    throw new IllegalStateException("no rival " + name);
  }

  /**
   * The candidates confirmed in full. Near the goal the screen understates attainment (and
   * overstates shed) by up to the measured screening error, so a candidate that misses the goal
   * screened by less than {@code marginPoints} (percentage points) may meet it in full. The
   * candidates within the margin (screened attainment at least the goal's less the margin, screened
   * shed at most the goal's plus it), cheapest screened instance-hours first (ties: the order
   * tried): every one cheaper than the cheapest that meets the goal screened, at most {@code bound}
   * − 1 of them, then that cheapest one (a candidate costlier than one that already meets the goal
   * on the screen cannot be the answer, so it is not confirmed). When none meets the goal screened,
   * the {@code bound} cheapest within the margin; when none is within it, the {@code bound} best by
   * {@link #better} (the highest attainment).
   */
  static List<Tried> finalists(List<Tried> tried, SearchGoal goal, double marginPoints, int bound) {
    double m = marginPoints / 100;
    List<Tried> near = new ArrayList<>();
    for (Tried t : tried) {
      Outcome o = t.screened();
      if (o.attainment() >= goal.minAttainment() - m && o.shed() <= goal.maxShed() + m) {
        near.add(t);
      }
    }
    near.sort(java.util.Comparator.comparingDouble(t -> t.screened().instanceHours()));
    if (near.isEmpty()) {
      List<Tried> ranked = new ArrayList<>(tried);
      ranked.sort((a, b) -> better(a, b, goal) ? -1 : better(b, a, goal) ? 1 : 0);
      return List.copyOf(ranked.subList(0, Math.min(bound, ranked.size())));
    }
    List<Tried> out = new ArrayList<>();
    for (Tried t : near) {
      if (t.screened().meets(goal)) {
        if (out.size() == bound) {
          out.removeLast();
        }
        out.add(t);
        return List.copyOf(out);
      }
      if (out.size() < bound) {
        out.add(t);
      }
    }
    return List.copyOf(out);
  }

  /**
   * The screening error the confirmation allows for, measured in this run: the largest amount by
   * which the screen understated attainment or overstated shed (percentage points, at least 0) for
   * the rivals the search starts from ({@link #MARGIN_RIVALS}: the plan's policy and
   * InvocationsPerInstance tracking, the two families searched), each simulated both ways on the
   * held-out day (same trace, same seed). The held-out day only measures the screen's error here;
   * no candidate is ranked on it.
   *
   * @param points the margin, in percentage points of attainment and of shed
   * @param from the rivals it was measured on
   */
  public record Margin(double points, List<String> from) {
    public Margin {
      from = List.copyOf(from);
    }

    /** As printed: {@code 0.057 pt (largest screening error of plan, invocations ...)}. */
    public String describe() {
      return String.format(
          java.util.Locale.ROOT,
          "%.3f pt (the largest screening error of %s on the held-out day, same seed)",
          points,
          String.join(", ", from));
    }

    /** From {@code pairs} (screened and full on one trace). */
    public static Margin of(List<Compared> pairs) {
      double worst = 0;
      List<String> from = new ArrayList<>();
      for (Compared c : pairs) {
        from.add(c.name());
        worst = Math.max(worst, (c.full().attainment() - c.screened().attainment()) * 100);
        worst = Math.max(worst, (c.screened().shed() - c.full().shed()) * 100);
      }
      return new Margin(worst, from);
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

  /**
   * How candidates are screened: on which runner, over which traffic, with which options, at 1/k.
   */
  private record Screening(Runner run, Traffic traffic, FleetSimulator.Options opt, int k) {}

  /**
   * Coordinate descent from {@code from}: each dimension's moves from the best so far are screened,
   * and the best of them (by {@link #better}) is where the next dimension starts.
   */
  private static Candidate descend(
      Candidate from,
      List<SearchSpace.Dimension> dimensions,
      Map<String, Tried> cache,
      Screening s,
      SearchGoal goal,
      Consumer<String> progress) {
    Candidate best = from;
    for (SearchSpace.Dimension d : dimensions) {
      List<Candidate> moves = d.moves().apply(best);
      screen(moves, d.name(), cache, s.run(), s.traffic(), s.opt(), s.k());
      for (Candidate c : moves) {
        if (better(tried(cache, c), tried(cache, best), goal)) {
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
    return best;
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
    Future<Outcome> submit(Job j) {
      return pool.submit(() ->
          Outcome.of(
              FleetSimulator.run(model, j.traffic(), j.policy(), j.options(), (a, b, c) -> {}),
              j.scale()));
    }

    Outcome await(Future<Outcome> f) {
      try {
        return f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SimulatorException("interrupted while searching");
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        throw new IllegalStateException(e.getCause());
      }
    }

    List<Outcome> all(List<Job> jobs) {
      List<Future<Outcome>> fs = new ArrayList<>();
      for (Job j : jobs) {
        fs.add(submit(j));
      }
      List<Outcome> out = new ArrayList<>();
      for (Future<Outcome> f : fs) {
        out.add(await(f));
      }
      return out;
    }
  }
}
