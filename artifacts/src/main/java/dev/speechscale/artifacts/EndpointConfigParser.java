package dev.speechscale.artifacts;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One model's entry of the endpoint configuration file, read into an {@link EndpointConfig}: every
 * problem is added to the caller's list (naming the field, the value and the fix) rather than
 * thrown, so the file reports them all at once.
 */
final class EndpointConfigParser {
  private EndpointConfigParser() {}

  private static final Set<String> ENGINES = Set.of("flite", "espeak", "kokoro");

  private static final Set<String> KNOWN =
      Set.of(
          "engine",
          "engine_settings",
          "instance_type",
          "min_instances",
          "max_instances",
          "scaling_target_value",
          "scale_in_threshold",
          "scale_out_cooldown_s",
          "scale_in_cooldown_s",
          "scale_in_alarm",
          "scheduled_floors",
          "scaling_metric",
          "ttfab_slo_ms",
          "queue_max_depth",
          "container_env",
          "local",
          "aws",
          "model_name");

  static @Nullable EndpointConfig model(String name, @Nullable JsonNode n, List<String> problems) {
    String at = "models." + name;
    if (!name.matches("[a-z0-9][a-z0-9-]{0,40}")) {
      problems.add(
          at
              + ": the model name must be lower-case letters, digits and '-' (at most 41"
              + " characters) because the endpoint is named speech-<model>");
    }
    if (n == null || !n.isObject()) {
      problems.add(at + " must be a map of settings");
      return null;
    }
    ConfigFields f = new ConfigFields(at, n, problems);
    f.unknownKeys(KNOWN);
    String engine = f.string("engine", "flite");
    if (!ENGINES.contains(engine)) {
      problems.add(at + ".engine ('" + engine + "') must be one of flite, espeak, kokoro");
    }
    String instanceType = f.string("instance_type", "local.1cpu");
    checkInstanceType(at, instanceType, problems);
    int min = f.integer("min_instances", 1, 1, 1000);
    int max = f.integer("max_instances", Math.max(1, min), 1, 1000);
    checkMinMax(at, min, max, problems);
    Double target = f.positiveOrNull("scaling_target_value");
    Double scaleIn = f.positiveOrNull("scale_in_threshold");
    checkThresholds(at, target, scaleIn, problems);
    Integer outCooldown = f.integerOrNull("scale_out_cooldown_s", 0, 86_400);
    Integer inCooldown = f.integerOrNull("scale_in_cooldown_s", 0, 86_400);
    ScaleInAlarmChoice alarm =
        choice(at, n, "scale_in_alarm", ScaleInAlarmChoice.class, ALARMS, problems);
    List<ScheduledFloorEntry> floors = floors(at, n.get("scheduled_floors"), max, problems);
    ScalingMetricChoice metric =
        choice(at, n, "scaling_metric", ScalingMetricChoice.class, METRICS, problems);
    int slo = f.integer("ttfab_slo_ms", 3000, 1, 60_000);
    int depth = f.integer("queue_max_depth", 0, 0, 100_000);
    Map<String, String> settings = f.stringMap("engine_settings");
    Map<String, String> env = f.stringMap("container_env");
    checkContainerEnv(at, env, settings, problems);
    EndpointConfig.Local local = local(at, n.get("local"), problems);
    EndpointConfig.Aws aws = aws(at, n.get("aws"), problems);
    checkAws(at, instanceType, max, aws, problems);
    return new EndpointConfig(
        name,
        engine,
        settings,
        instanceType,
        min,
        max,
        target,
        scaleIn,
        outCooldown,
        inCooldown,
        alarm,
        slo,
        depth,
        env,
        local,
        aws,
        floors,
        metric);
  }

  /**
   * {@code scheduled_floors}: a list of {@code {at: "HH:MM", min_capacity: N}} (UTC), or {@code
   * null} when the config leaves them to the plan.
   */
  private static @Nullable List<ScheduledFloorEntry> floors(
      String at, @Nullable JsonNode n, int max, List<String> problems) {
    if (n == null || n.isNull()) {
      return null;
    }
    String field = at + ".scheduled_floors";
    if (!n.isArray()) {
      problems.add(
          field
              + " ("
              + n
              + ") must be a list of {at: \"HH:MM\", min_capacity: N} (UTC), e.g. [{at:"
              + " \"08:00\", min_capacity: 3}]");
      return null;
    }
    List<ScheduledFloorEntry> out = new java.util.ArrayList<>();
    Set<String> times = new java.util.HashSet<>();
    for (int i = 0; i < n.size(); i++) {
      JsonNode e = n.get(i);
      String here = field + "[" + i + "]";
      if (!e.isObject()
          || !e.has("at")
          || !e.get("at").isString()
          || !e.has("min_capacity")
          || !e.get("min_capacity").isIntegralNumber()
          || e.size() != 2) {
        problems.add(
            here
                + " ("
                + e
                + ") must be {at: \"HH:MM\", min_capacity: N} with exactly those two keys");
        continue;
      }
      String time = e.get("at").asString();
      int min = e.get("min_capacity").asInt();
      String problem = ScheduledFloorEntry.problem(time, min);
      if (problem != null) {
        problems.add(here + ": " + problem);
        continue;
      }
      ScheduledFloorEntry f = new ScheduledFloorEntry(time, min);
      if (min > max) {
        problems.add(
            here
                + ".min_capacity ("
                + min
                + ") is above max_instances ("
                + max
                + "); Application Auto Scaling refuses a minimum above the maximum: lower it or"
                + " raise max_instances");
      }
      if (!times.add(f.at())) {
        problems.add(here + ": a second floor at " + f.at() + "; keep one floor per time of day");
      }
      out.add(f);
    }
    return out;
  }

  /** What the {@code scale_in_alarm} labels mean, for its refusal. */
  private static final String ALARMS =
      "maximum_10s (the default) cannot undo a fresh scale-out, average_60s is the pair plans"
          + " deployed before issue 35";

  /** What the {@code scaling_metric} labels mean, for its refusal. */
  private static final String METRICS =
      "concurrent_requests_per_model (the default) or invocations_per_instance"
          + " (SageMakerVariantInvocationsPerInstance, scaling_target_value per instance per"
          + " minute)";

  /**
   * The closed-set field {@code field} of {@code model} (refused with its labels, then {@code
   * meaning}), or {@code null} when the config leaves it to the plan.
   */
  private static <E extends Enum<E> & Labelled> @Nullable E choice(
      String at,
      JsonNode model,
      String field,
      Class<E> type,
      String meaning,
      List<String> problems) {
    JsonNode n = model.get(field);
    if (n == null || n.isNull()) {
      return null;
    }
    E c = n.isString() ? Labels.ofLabelOrNull(type, n.asString()) : null;
    if (c == null) {
      problems.add(
          at + "." + field + " (" + n + ") must be one of " + Labels.labels(type) + ": " + meaning);
    }
    return c;
  }

  private static void checkInstanceType(String at, String instanceType, List<String> problems) {
    if (!instanceType.matches(
        "local\\.[1-9][0-9]?cpu|local\\.[1-9][0-9]{1,3}mcpu|ml\\.[a-z0-9]+\\.[a-z0-9]+")) {
      problems.add(
          at
              + ".instance_type ('"
              + instanceType
              + "') must be local.<n>cpu (e.g. local.1cpu), local.<m>mcpu (millicpus, e.g."
              + " local.500mcpu) or a SageMaker type (e.g. ml.g5.xlarge)");
    }
  }

  private static void checkMinMax(String at, int min, int max, List<String> problems) {
    if (max < min) {
      problems.add(
          at
              + ".max_instances ("
              + max
              + ") is below min_instances ("
              + min
              + "); raise max_instances or lower min_instances");
    }
  }

  private static void checkThresholds(
      String at, @Nullable Double target, @Nullable Double scaleIn, List<String> problems) {
    if (target != null && scaleIn != null && scaleIn >= target) {
      problems.add(
          at
              + ".scale_in_threshold ("
              + scaleIn
              + ") must be below scaling_target_value ("
              + target
              + ") or the endpoint flaps");
    }
  }

  /** The platform sets some variables itself; one the config also sets is a contradiction. */
  private static void checkContainerEnv(
      String at, Map<String, String> env, Map<String, String> settings, List<String> problems) {
    for (String reserved : List.of("MAX_QUEUE_DEPTH", "CONTAINER_START_EPOCH")) {
      if (env.containsKey(reserved)) {
        problems.add(
            at
                + ".container_env."
                + reserved
                + " is set by the platform; use "
                + (reserved.equals("MAX_QUEUE_DEPTH") ? "queue_max_depth" : "nothing")
                + " instead");
      }
    }
    for (String variable : env.keySet()) {
      boolean isEngine = variable.equals(EndpointConfig.ENGINE_VARIABLE);
      boolean isSetting =
          settings.keySet().stream()
              .anyMatch(k -> EndpointConfig.settingVariable(k).equals(variable));
      if (isEngine || isSetting) {
        problems.add(
            at
                + ".container_env."
                + variable
                + " would contradict "
                + (isEngine ? "engine" : "engine_settings")
                + ", which the platform passes as this variable; set it there only");
      }
    }
  }

  private static void checkAws(
      String at,
      String instanceType,
      int max,
      EndpointConfig.@Nullable Aws aws,
      List<String> problems) {
    if (instanceType.startsWith("ml.") && aws == null) {
      problems.add(
          at
              + ".aws is required for instance type "
              + instanceType
              + " (image_uri, model_repository, model_revision, quota_max_instances)");
    }
    if (aws != null && aws.quotaMaxInstances() != null && max > aws.quotaMaxInstances()) {
      problems.add(
          at
              + ".max_instances ("
              + max
              + ") exceeds aws.quota_max_instances ("
              + aws.quotaMaxInstances()
              + "); request a quota increase or lower max_instances");
    }
  }

  private static EndpointConfig.Local local(String at, JsonNode n, List<String> problems) {
    if (n == null || n.isNull()) {
      return EndpointConfig.Local.DEFAULTS;
    }
    ConfigFields f = new ConfigFields(at + ".local", n, problems);
    double scale = f.number("time_scale", 1.0);
    if (!(scale > 0 && scale <= 1)) {
      problems.add(at + ".local.time_scale (" + scale + ") must be in (0, 1]");
    }
    f.unknownKeys(LOCAL_KNOWN);
    return new EndpointConfig.Local(
        scale,
        f.integer("health_check_timeout_s", 600, 1, 3600),
        awsPhysics(at + ".local.aws_physics", n.get("aws_physics"), problems));
  }

  private static final Set<String> LOCAL_KNOWN =
      Set.of("time_scale", "health_check_timeout_s", "aws_physics");

  private static final Set<String> PHYSICS_KNOWN =
      Set.of(
          "metric_delay_s",
          "control_calls_per_s",
          "instance_start_s",
          "instance_start_jitter_s",
          "capacity_limit",
          "concurrency_when_idle");

  private static EndpointConfig.AwsPhysics awsPhysics(
      String at, JsonNode n, List<String> problems) {
    if (n == null || n.isNull()) {
      return EndpointConfig.AwsPhysics.OFF;
    }
    if (!n.isObject()) {
      problems.add(
          at
              + " must be a map (metric_delay_s, control_calls_per_s, instance_start_s);"
              + " leave it out for none");
      return EndpointConfig.AwsPhysics.OFF;
    }
    ConfigFields f = new ConfigFields(at, n, problems);
    f.unknownKeys(PHYSICS_KNOWN);
    double rate = f.number("control_calls_per_s", 0);
    if (!(rate >= 0 && rate <= 10_000)) {
      problems.add(
          String.format(
              Locale.ROOT,
              "%s.control_calls_per_s (%s) must be between 0 (unlimited) and 10000",
              at,
              rate));
      rate = 0;
    }
    String idle = f.string("concurrency_when_idle", "zero");
    EndpointConfig.IdleConcurrency whenIdle = EndpointConfig.IdleConcurrency.ZERO;
    try {
      whenIdle = EndpointConfig.IdleConcurrency.of(idle);
    } catch (IllegalArgumentException e) {
      problems.add(at + ".concurrency_when_idle: " + e.getMessage());
    }
    return new EndpointConfig.AwsPhysics(
        f.integer("metric_delay_s", 0, 0, 3600),
        rate,
        f.integer("instance_start_s", 0, 0, 3600),
        f.integer("instance_start_jitter_s", 0, 0, 3600),
        f.integer("capacity_limit", 0, 0, 100_000),
        whenIdle);
  }

  private static EndpointConfig.@Nullable Aws aws(
      String at, @Nullable JsonNode n, List<String> problems) {
    if (n == null || n.isNull()) {
      return null;
    }
    ConfigFields f = new ConfigFields(at + ".aws", n, problems);
    String revision = f.string("model_revision", "");
    if (!revision.isEmpty() && !revision.matches("[0-9a-f]{40}")) {
      problems.add(
          at
              + ".aws.model_revision ('"
              + revision
              + "') must be a 40-hex commit hash:"
              + " pin the weights, never a branch");
    }
    return new EndpointConfig.Aws(
        f.stringOrNull("image_uri"),
        f.stringOrNull("model_repository"),
        revision.isEmpty() ? null : revision,
        f.integerOrNull("quota_max_instances", 1, 100_000),
        f.string("variant_name", "AllTraffic"),
        f.stringOrNull("gpu_image_uri"));
  }
}
