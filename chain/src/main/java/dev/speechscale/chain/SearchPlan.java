package dev.speechscale.chain;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.ScalingMetricChoice;
import dev.speechscale.simulator.Candidate;
import dev.speechscale.simulator.Floors;
import dev.speechscale.simulator.Frontier;
import dev.speechscale.simulator.Outcome;
import dev.speechscale.simulator.PolicySearch;
import dev.speechscale.simulator.SearchGoal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * The plan artifact {@code search} writes: the input plan, every field kept, with the found policy
 * in its policy fields (and its endpoint config block and config text, so it deploys as any plan)
 * and a {@code search} section recording the search (goal, trace digest, seeds, candidates tried,
 * frontier, finalists and the held-out day).
 */
public final class SearchPlan {
  private SearchPlan() {}

  /**
   * What the search was given, for the record.
   *
   * @param goal the goal
   * @param trace the trace's name (a file name or the pattern's description)
   * @param traceDigest SHA-256 of the trace file, or of the fitted rate table for a pattern
   * @param seed the fitted day's seed
   * @param heldOutSeed the held-out day's seed
   * @param heldOutShiftSeconds how much later the held-out day runs the shape
   * @param scale the screening's fleet divisor
   */
  public record Record(
      SearchGoal goal,
      String trace,
      String traceDigest,
      long seed,
      long heldOutSeed,
      long heldOutShiftSeconds,
      int scale) {}

  /** The plan JSON of {@code planFile} with the search's policy and record, as text. */
  public static String json(
      Path planFile, PolicySearch.Result r, Record rec, Provenance provenance, Instant createdAt) {
    String text;
    try {
      text = Files.readString(planFile, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + planFile + ": " + e.getMessage(), e);
    }
    return json(text, r, rec, provenance, createdAt, null);
  }

  /**
   * The plan JSON {@code planJson} with the search's policy and record, as text; {@code types},
   * when given, is recorded as {@code search.types} (a search over several instance types).
   */
  @SuppressWarnings("unchecked")
  public static String json(
      String planJson,
      PolicySearch.Result r,
      Record rec,
      Provenance provenance,
      Instant createdAt,
      @org.jspecify.annotations.Nullable List<Map<String, Object>> types) {
    Map<String, Object> plan;
    try {
      plan = ArtifactCodec.mapper().readValue(planJson, LinkedHashMap.class);
    } catch (RuntimeException e) {
      throw new ChainException("cannot read the plan to search from: " + e.getMessage());
    }
    Candidate c = r.recommendation();
    plan.put("created_at", createdAt.toString());
    plan.put("provenance", ArtifactCodec.mapper().convertValue(provenance, Map.class));
    double ratioMax = ratio(plan.get("ratio_max"));
    double ratioAverage = ratio(plan.get("ratio_average"));
    plan.put("c_scale_max", c.targetValue() / ratioMax);
    plan.put("c_scale_min", c.scaleInThreshold() / ratioAverage);
    Map<String, Object> fields = policyFields(c);
    plan.remove("scaling_metric");
    plan.putAll(fields);
    Object block = plan.get("endpoint_config");
    if (block instanceof Map<?, ?> m) {
      Map<String, Object> ec = (Map<String, Object>) m;
      fields.forEach((k, v) -> {
        if (ec.containsKey(k)) {
          ec.put(k, v);
        }
      });
    }
    if (plan.get("config_block") instanceof String text) {
      plan.put("config_block", configBlock(text, fields, r.recommended()));
    }
    if (c.floors().isEmpty()) {
      plan.remove("scheduled_floors");
    } else {
      plan.put("scheduled_floors", c.floors().stream().map(SearchPlan::floor).toList());
    }
    Map<String, Object> section = section(r, rec);
    if (types != null) {
      section.put("types", types);
    }
    plan.put("search", section);
    String json = ArtifactCodec.mapper().writeValueAsString(plan) + "\n";
    List<String> errors = ArtifactCodec.validate(ArtifactKind.PLAN, json);
    if (!errors.isEmpty()) {
      throw new ChainException("the searched plan does not validate as a plan: " + errors);
    }
    return json;
  }

  private static double ratio(@org.jspecify.annotations.Nullable Object v) {
    return v instanceof Number n && n.doubleValue() > 0 ? n.doubleValue() : 1;
  }

  private static Map<String, Object> policyFields(Candidate c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("min_instances", c.min());
    m.put("max_instances", c.max());
    m.put("scaling_target_value", c.targetValue());
    m.put("scale_in_threshold", c.scaleInThreshold());
    m.put("scale_out_cooldown_s", c.scaleOutCooldownS());
    m.put("scale_in_cooldown_s", c.scaleInCooldownS());
    m.put("scale_in_alarm", c.alarm().label());
    if (c.tracksScaleIn()) {
      // additive: written only for InvocationsPerInstance, so a plan's fields stay as they were
      m.put("scaling_metric", ScalingMetricChoice.INVOCATIONS_PER_INSTANCE.label());
    }
    return m;
  }

  /** The config text with each policy field's value replaced, its comment naming the search. */
  static String configBlock(String text, Map<String, Object> fields, String name) {
    String out = text;
    for (Map.Entry<String, Object> f : fields.entrySet()) {
      String value =
          f.getValue() instanceof Double d
              ? String.format(java.util.Locale.ROOT, "%.3f", d)
              : String.valueOf(f.getValue());
      java.util.regex.Pattern p =
          java.util.regex.Pattern.compile(
              "(?m)^(\\s+" + f.getKey() + ":\\s*)(\\S+)([ \\t]*)(#.*)?$");
      Matcher m = p.matcher(out);
      if (m.find()) {
        int width = m.group(2).length() + m.group(3).length();
        String pad = " ".repeat(Math.max(1, width - value.length()));
        out =
            out.substring(0, m.start())
                + m.group(1)
                + value
                + pad
                + "# tts-bench search: "
                + name
                + out.substring(m.end());
      } else if (f.getKey().equals("scaling_metric")) {
        out =
            out
                + String.format(
                    java.util.Locale.ROOT,
                    "%-36s # tts-bench search: %s\n",
                    "    " + f.getKey() + ": " + value,
                    name);
      }
    }
    return out;
  }

  private static Map<String, Object> section(PolicySearch.Result r, Record rec) {
    Map<String, Object> s = new LinkedHashMap<>();
    Map<String, Object> goal = new LinkedHashMap<>();
    goal.put("min_slo_attainment", rec.goal().minAttainment());
    goal.put("max_shed", rec.goal().maxShed());
    s.put("goal", goal);
    s.put("trace", rec.trace());
    s.put("trace_sha256", rec.traceDigest());
    s.put("seed", rec.seed());
    Map<String, Object> held = new LinkedHashMap<>();
    held.put("seed", rec.heldOutSeed());
    held.put("shift_s", rec.heldOutShiftSeconds());
    held.put("rate_table_sha256", r.heldOutTable().digest());
    s.put("held_out", held);
    s.put("screen_scale", rec.scale());
    Map<String, Object> margin = new LinkedHashMap<>();
    margin.put("points", r.margin().points());
    margin.put("measured_on", r.margin().from());
    s.put("confirmation_margin", margin);
    s.put("recommended", r.recommended());
    s.put("recommended_policy", r.recommendation().description());
    s.put("meets_goal_fitted", r.meetsGoal());
    s.put("scheduled_floors", r.recommendation().floors().stream().map(SearchPlan::floor).toList());
    List<Object> tried = new ArrayList<>();
    for (PolicySearch.Tried t : r.tried()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", t.name());
      m.put("varied", t.dimension());
      m.putAll(policyFields(t.candidate()));
      m.put("floor_fraction", t.candidate().floorFraction());
      m.put("scheduled_floors", t.candidate().floors().stream().map(SearchPlan::floor).toList());
      m.put("screened", outcome(t.screened()));
      tried.add(m);
    }
    s.put("candidates", tried);
    Map<String, Object> rivals = new LinkedHashMap<>();
    r.rivalsScreened().forEach((n, o) -> rivals.put(n, outcome(o)));
    s.put("rivals_screened", rivals);
    s.put("frontier", r.frontier().stream().map(SearchPlan::point).toList());
    s.put("finalists", r.finalists().stream().map(SearchPlan::compared).toList());
    s.put("held_out_results", r.heldOut().stream().map(SearchPlan::compared).toList());
    return s;
  }

  static Map<String, Object> floor(Floors.Floor f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("at", f.at());
    m.put("min_capacity", f.minCapacity());
    return m;
  }

  private static Map<String, Object> point(Frontier.Point p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", p.name());
    m.put("instance_hours", p.instanceHours());
    m.put("slo_attainment", p.attainment());
    return m;
  }

  private static Map<String, Object> compared(PolicySearch.Compared c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", c.name());
    m.put("deployable", c.deployable());
    if (!c.deployable()) {
      m.put("not_deployable", c.notDeployable());
    }
    m.put("full", outcome(c.full()));
    m.put("screened", outcome(c.screened()));
    return m;
  }

  private static Map<String, Object> outcome(Outcome o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("instance_hours", o.instanceHours());
    m.put("slo_attainment", o.attainment());
    m.put("shed", o.shed());
    m.put("ttfab_p95_ms", nan(o.p95Ms()));
    m.put("ttfab_p99_ms", nan(o.p99Ms()));
    m.put("minutes_at_max", o.minutesAtMax());
    m.put("scale_outs", o.scaleOuts());
    m.put("scale_ins", o.scaleIns());
    return m;
  }

  private static Object nan(double v) {
    return Double.isNaN(v) ? "NaN" : v;
  }
}
