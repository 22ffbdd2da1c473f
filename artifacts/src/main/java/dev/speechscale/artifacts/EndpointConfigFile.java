package dev.speechscale.artifacts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The endpoint configuration file: YAML with a {@code models:} map, one entry per model. Every
 * problem is reported at once, each naming the field ({@code models.flite.min_instances}), the
 * value and the fix.
 */
public final class EndpointConfigFile {
  private static final YAMLMapper YAML = YAMLMapper.builder().build();

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
          "ttfab_slo_ms",
          "queue_max_depth",
          "container_env",
          "local",
          "aws",
          "model_name");

  private final Path file;
  private final Map<String, EndpointConfig> models;

  private EndpointConfigFile(Path file, Map<String, EndpointConfig> models) {
    this.file = file;
    this.models = models;
  }

  public Path file() {
    return file;
  }

  public Map<String, EndpointConfig> models() {
    return models;
  }

  /** The named model, or a clear error listing the models the file has. */
  public EndpointConfig model(String name) {
    EndpointConfig c = models.get(name);
    if (c == null) {
      throw new ArtifactException(
          file + " has no model '" + name + "'; it defines " + String.join(", ", models.keySet()));
    }
    return c;
  }

  /** Reads and validates a config file. */
  public static EndpointConfigFile read(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new ArtifactException(file + ": no such endpoint config file");
    } catch (IOException e) {
      throw new ArtifactException(file + ": cannot be read (" + e.getMessage() + ")");
    }
    return parse(file, text);
  }

  /** Parses config text; {@code file} only names it in messages. */
  public static EndpointConfigFile parse(Path file, String text) {
    JsonNode root;
    try {
      root = YAML.readTree(text);
    } catch (JacksonException e) {
      throw new ArtifactException(file + " is not valid YAML: " + e.getOriginalMessage());
    }
    List<String> problems = new ArrayList<>();
    JsonNode modelsNode = root == null ? null : root.get("models");
    if (modelsNode == null || !modelsNode.isObject() || modelsNode.isEmpty()) {
      throw new ArtifactException(
          file + ": needs a 'models:' map with at least one model (see config/README.md)");
    }
    Map<String, EndpointConfig> models = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : modelsNode.properties()) {
      EndpointConfig c = model(e.getKey(), e.getValue(), problems);
      if (c != null) {
        models.put(e.getKey(), c);
      }
    }
    if (!problems.isEmpty()) {
      throw new ArtifactException(
          file
              + " has "
              + problems.size()
              + " problem"
              + (problems.size() == 1 ? "" : "s")
              + ":\n  "
              + String.join("\n  ", problems));
    }
    return new EndpointConfigFile(file, Map.copyOf(models));
  }

  private static @Nullable EndpointConfig model(
      String name, @Nullable JsonNode n, List<String> problems) {
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
    for (Iterator<String> it = n.propertyNames().iterator(); it.hasNext(); ) {
      String key = it.next();
      if (!KNOWN.contains(key)) {
        problems.add(
            at
                + "."
                + key
                + " is not a known setting; known: "
                + String.join(", ", KNOWN.stream().sorted().toList()));
      }
    }
    Fields f = new Fields(at, n, problems);
    String engine = f.string("engine", "flite");
    if (!ENGINES.contains(engine)) {
      problems.add(at + ".engine ('" + engine + "') must be one of flite, espeak, kokoro");
    }
    String instanceType = f.string("instance_type", "local.1cpu");
    if (!instanceType.matches(
        "local\\.[1-9][0-9]?cpu|local\\.[1-9][0-9]{1,3}mcpu|ml\\.[a-z0-9]+\\.[a-z0-9]+")) {
      problems.add(
          at
              + ".instance_type ('"
              + instanceType
              + "') must be local.<n>cpu (e.g. local.1cpu), local.<m>mcpu (millicpus, e.g."
              + " local.500mcpu) or a SageMaker type (e.g. ml.g5.xlarge)");
    }
    int min = f.integer("min_instances", 1, 1, 1000);
    int max = f.integer("max_instances", Math.max(1, min), 1, 1000);
    if (max < min) {
      problems.add(
          at
              + ".max_instances ("
              + max
              + ") is below min_instances ("
              + min
              + "); raise max_instances or lower min_instances");
    }
    Double target = f.positiveOrNull("scaling_target_value");
    Double scaleIn = f.positiveOrNull("scale_in_threshold");
    if (target != null && scaleIn != null && scaleIn >= target) {
      problems.add(
          at
              + ".scale_in_threshold ("
              + scaleIn
              + ") must be below scaling_target_value ("
              + target
              + ") or the endpoint flaps");
    }
    Integer outCooldown = f.integerOrNull("scale_out_cooldown_s", 0, 86_400);
    Integer inCooldown = f.integerOrNull("scale_in_cooldown_s", 0, 86_400);
    int slo = f.integer("ttfab_slo_ms", 3000, 1, 60_000);
    int depth = f.integer("queue_max_depth", 0, 0, 100_000);
    Map<String, String> settings = f.stringMap("engine_settings");
    Map<String, String> env = f.stringMap("container_env");
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
    EndpointConfig.Local local = local(at, n.get("local"), problems);
    EndpointConfig.Aws aws = aws(at, n.get("aws"), problems);
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
        slo,
        depth,
        env,
        local,
        aws);
  }

  private static EndpointConfig.Local local(String at, JsonNode n, List<String> problems) {
    if (n == null || n.isNull()) {
      return EndpointConfig.Local.DEFAULTS;
    }
    Fields f = new Fields(at + ".local", n, problems);
    double scale = f.number("time_scale", 1.0);
    if (!(scale > 0 && scale <= 1)) {
      problems.add(at + ".local.time_scale (" + scale + ") must be in (0, 1]");
    }
    for (Iterator<String> it = n.propertyNames().iterator(); it.hasNext(); ) {
      String key = it.next();
      if (!LOCAL_KNOWN.contains(key)) {
        problems.add(
            at
                + ".local."
                + key
                + " is not a known setting; known: "
                + String.join(", ", LOCAL_KNOWN.stream().sorted().toList()));
      }
    }
    return new EndpointConfig.Local(
        scale,
        f.integer("health_check_timeout_s", 600, 1, 3600),
        awsPhysics(at + ".local.aws_physics", n.get("aws_physics"), problems));
  }

  private static final Set<String> LOCAL_KNOWN =
      Set.of("time_scale", "health_check_timeout_s", "aws_physics");

  private static final Set<String> PHYSICS_KNOWN =
      Set.of("metric_delay_s", "control_calls_per_s", "instance_start_s");

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
    for (Iterator<String> it = n.propertyNames().iterator(); it.hasNext(); ) {
      String key = it.next();
      if (!PHYSICS_KNOWN.contains(key)) {
        problems.add(
            at
                + "."
                + key
                + " is not a known setting; known: "
                + String.join(", ", PHYSICS_KNOWN.stream().sorted().toList()));
      }
    }
    Fields f = new Fields(at, n, problems);
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
    return new EndpointConfig.AwsPhysics(
        f.integer("metric_delay_s", 0, 0, 3600), rate, f.integer("instance_start_s", 0, 0, 3600));
  }

  private static EndpointConfig.@Nullable Aws aws(
      String at, @Nullable JsonNode n, List<String> problems) {
    if (n == null || n.isNull()) {
      return null;
    }
    Fields f = new Fields(at + ".aws", n, problems);
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

  /** Typed access with messages that name the field, show the value and state the rule. */
  private record Fields(String at, JsonNode node, List<String> problems) {
    String string(String key, String dflt) {
      String v = stringOrNull(key);
      return v == null ? dflt : v;
    }

    @Nullable String stringOrNull(String key) {
      JsonNode v = node.get(key);
      if (v == null || v.isNull()) {
        return null;
      }
      if (!v.isString() && !v.isNumber()) {
        problems.add(at + "." + key + " (" + v + ") must be text");
        return null;
      }
      return v.asString();
    }

    double number(String key, double dflt) {
      JsonNode v = node.get(key);
      if (v == null || v.isNull()) {
        return dflt;
      }
      if (!v.isNumber()) {
        problems.add(at + "." + key + " (" + v + ") must be a number");
        return dflt;
      }
      return v.doubleValue();
    }

    int integer(String key, int dflt, int lo, int hi) {
      Integer v = integerOrNull(key, lo, hi);
      return v == null ? dflt : v;
    }

    @Nullable Integer integerOrNull(String key, int lo, int hi) {
      JsonNode v = node.get(key);
      if (v == null || v.isNull()) {
        return null;
      }
      if (!v.isIntegralNumber()) {
        problems.add(at + "." + key + " (" + v + ") must be a whole number");
        return null;
      }
      int i = v.intValue();
      if (i < lo || i > hi) {
        problems.add(
            String.format(Locale.ROOT, "%s.%s (%d) must be between %d and %d", at, key, i, lo, hi));
        return null;
      }
      return i;
    }

    @Nullable Double positiveOrNull(String key) {
      JsonNode v = node.get(key);
      if (v == null || v.isNull()) {
        return null;
      }
      if (!v.isNumber() || !(v.doubleValue() > 0)) {
        problems.add(
            at
                + "."
                + key
                + " ("
                + v
                + ") must be a positive number (or left out to"
                + " take it from the plan)");
        return null;
      }
      return v.doubleValue();
    }

    Map<String, String> stringMap(String key) {
      JsonNode v = node.get(key);
      Map<String, String> out = new LinkedHashMap<>();
      if (v == null || v.isNull()) {
        return out;
      }
      if (!v.isObject()) {
        problems.add(at + "." + key + " must be a map of names to values");
        return out;
      }
      for (Map.Entry<String, JsonNode> e : v.properties()) {
        if (e.getValue().isObject() || e.getValue().isArray()) {
          problems.add(at + "." + key + "." + e.getKey() + " must be a plain value");
        } else {
          out.put(e.getKey(), e.getValue().asString());
        }
      }
      return out;
    }
  }
}
