package dev.speechscale.chain;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.capacity.Load;
import dev.speechscale.capacity.Scenario;
import dev.speechscale.simulator.Outcome;
import dev.speechscale.simulator.PolicySearch;
import dev.speechscale.simulator.SearchGoal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * {@code search} over several instance types: each type's plan re-derived from its own ladder with
 * the given plan's chosen inputs ({@link PlanRun}, the capacity module's arithmetic), each type
 * searched with the same goal, trace and seeds, and the type whose recommendation meets the goal at
 * the lowest cost on the held-out day chosen, as Inference Recommender picks a type by load test
 * alone. Cost is money (instance-hours × the type's price per instance-hour), not instance-hours,
 * since an instance-hour of one type is not one of another.
 */
public final class SearchTypes {
  private SearchTypes() {}

  /**
   * One type's search.
   *
   * @param instanceType the type its ladder was measured on
   * @param qmaxFile its qmax artifact
   * @param qMax its Q_max
   * @param pricePerHour its price per instance-hour, US dollars
   * @param ttotal where its start-up delay came from: its own ttotal file(s) or the given ones
   * @param planSource the plan it searched from: the given file or "derived from FILE"
   * @param plan that plan
   * @param planJson that plan as JSON (what the written artifact starts from)
   * @param result its search
   */
  public record Type(
      String instanceType,
      String qmaxFile,
      int qMax,
      double pricePerHour,
      String ttotal,
      String planSource,
      PlanArtifact plan,
      String planJson,
      PolicySearch.Result result) {

    /** Its recommendation on the held-out day, in full. */
    public Outcome heldOut() {
      return result.heldOut().getFirst().full();
    }

    /** The held-out day's cost of its recommendation, US dollars. */
    public double cost() {
      return heldOut().instanceHours() * pricePerHour;
    }

    /** Whether its recommendation met {@code goal} on the held-out day. */
    public boolean meets(SearchGoal goal) {
      return goal.meets(heldOut().attainment(), heldOut().shed());
    }
  }

  /** The instance type {@code q} was measured on, as its fingerprint records it. */
  public static String instanceType(QmaxArtifact q) {
    return q.deployedConfig() == null ? "(type not recorded)" : q.deployedConfig().instanceType();
  }

  /** Its Q_max, 0 when it has none. */
  public static int qMax(QmaxArtifact q) {
    Integer v = q.qMax();
    return v == null ? 0 : v;
  }

  /**
   * The plan {@code qmaxFile}'s type would get from {@code plan}'s chosen inputs (peak, trough,
   * surge ratio, floor, shed target, ceiling): {@code tts-bench plan} re-run on that ladder, so
   * C_scale, the thresholds, min and max follow that type's Q_max.
   *
   * @param ttotalFile the ttotal the plan sizes T against
   * @param borrowed whether that ttotal was measured on another type (its fingerprint then differs
   *     and is allowed, with a warning)
   * @throws ChainException when the plan records no chosen inputs or the ladder is of another model
   */
  public static PlanArtifact derivePlan(
      Path qmaxFile,
      QmaxArtifact q,
      Path ttotalFile,
      boolean borrowed,
      PlanArtifact plan,
      Path planFile,
      String command,
      Consumer<String> warn,
      Instant now) {
    if (!q.model().equals(plan.model())) {
      throw new ChainException(
          String.format(
              Locale.ROOT,
              "%s: the ladder %s is of model '%s', the plan %s of '%s'; give ladders of the plan's"
                  + " model",
              Flags.ALSO_TYPE,
              qmaxFile,
              q.model(),
              planFile,
              plan.model()));
    }
    PlanArtifact.Chosen c = plan.inputs() == null ? null : plan.inputs().chosen();
    if (c == null) {
      throw new ChainException(
          Flags.ALSO_TYPE
              + ": the plan "
              + planFile
              + " records no chosen inputs (peak, surge ratio, ...), so no plan can be derived for"
              + " another type; re-run tts-bench plan");
    }
    Load peak =
        c.peakRps() != null
            ? new Load.RequestRate(c.peakRps())
            : new Load.Streams(java.util.Objects.requireNonNull(c.peakStreams(), "peak"));
    Load trough =
        c.troughRps() != null
            ? new Load.RequestRate(c.troughRps())
            : c.troughStreams() != null ? new Load.Streams(c.troughStreams()) : null;
    Scenario shape =
        new Scenario(
            c.sloMs(),
            c.surgeRatio(),
            peak,
            trough,
            c.minFloor(),
            c.shedTarget(),
            c.ceilingS(),
            c.trials(),
            c.seed());
    Map<String, Object> parameters = new LinkedHashMap<>();
    parameters.put("qmax", qmaxFile.toString());
    parameters.put("ttotal", ttotalFile.toString());
    parameters.put("derived_from_plan", planFile.toString());
    return PlanRun.run(
            new PlanRun.Options(
                qmaxFile, ttotalFile, null, shape, null, borrowed, command, parameters),
            warn,
            now)
        .artifact();
  }

  /**
   * The chosen type's index: the cheapest that meets the goal on the held-out day; when none does,
   * the one that comes closest (highest attainment, then least shed, then cheapest). Ties keep the
   * order given.
   */
  public static int choose(List<Type> types, SearchGoal goal) {
    Comparator<Integer> order =
        Comparator.comparing((Integer i) -> !types.get(i).meets(goal))
            .thenComparing(i -> types.get(i).meets(goal) ? 0 : -types.get(i).heldOut().attainment())
            .thenComparing(i -> types.get(i).meets(goal) ? 0 : types.get(i).heldOut().shed())
            .thenComparingDouble(i -> types.get(i).cost());
    return IntStream.range(0, types.size()).boxed().min(order).orElseThrow();
  }

  /** The summary's per-type lines, after the chosen type's own summary. */
  public static String render(List<Type> types, int chosen, SearchGoal goal) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        "\ninstance types (each searched with the same goal, trace and seeds; its recommendation on"
            + " the held-out day, full simulation; cost = inst-h x price; chosen by the held-out"
            + " day, 'fitted' is the type's own search's verdict on the fitted day):\n");
    sb.append(
        String.format(
            Locale.ROOT,
            "  %-16s %5s %9s %-6s %9s %7s %9s %10s  %-5s %-6s %s%n",
            "type",
            "Q_max",
            "$/inst-h",
            "policy",
            "SLO ok",
            "shed",
            "inst-h",
            "cost $",
            "goal",
            "fitted",
            "start-up delay"));
    for (Type t : types) {
      Outcome o = t.heldOut();
      sb.append(
          String.format(
              Locale.ROOT,
              "  %-16s %5d %9.4f %-6s %8.3f%% %6.3f%% %9.1f %10.4f  %-5s %-6s %s%n",
              t.instanceType(),
              t.qMax(),
              t.pricePerHour(),
              t.result().recommended(),
              o.attainment() * 100,
              o.shed() * 100,
              o.instanceHours(),
              t.cost(),
              t.meets(goal) ? "met" : "MISS",
              t.result().meetsGoal() ? "met" : "MISS",
              t.ttotal()));
    }
    Type c = types.get(chosen);
    sb.append(
        String.format(
            Locale.ROOT,
            "chosen type: %s (%s, $%.4f on the held-out day); the plan written is its own%n",
            c.instanceType(),
            c.meets(goal)
                ? "the cheapest whose recommendation meets the goal"
                : "NO type's recommendation met the goal: the closest",
            c.cost()));
    return sb.toString();
  }

  /** The artifact's {@code search.types}: every type's result, the chosen one marked. */
  public static List<Map<String, Object>> section(List<Type> types, int chosen, SearchGoal goal) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      Type t = types.get(i);
      Outcome o = t.heldOut();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("instance_type", t.instanceType());
      m.put("qmax_file", t.qmaxFile());
      m.put("q_max", t.qMax());
      m.put("price_per_hour_usd", t.pricePerHour());
      m.put("ttotal", t.ttotal());
      m.put("plan", t.planSource());
      m.put("c_scale_max", t.plan().cScaleMax());
      m.put("recommended", t.result().recommended());
      m.put("recommended_policy", t.result().recommendation().description());
      m.put("held_out_instance_hours", o.instanceHours());
      m.put("held_out_slo_attainment", o.attainment());
      m.put("held_out_shed", o.shed());
      m.put("held_out_cost_usd", t.cost());
      m.put("meets_goal_held_out", t.meets(goal));
      m.put("meets_goal_fitted", t.result().meetsGoal());
      m.put("chosen", i == chosen);
      out.add(m);
    }
    return out;
  }
}
