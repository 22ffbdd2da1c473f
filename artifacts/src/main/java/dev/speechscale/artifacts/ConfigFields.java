package dev.speechscale.artifacts;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/** Typed access with messages that name the field, show the value and state the rule. */
record ConfigFields(String at, JsonNode node, List<String> problems) {
  /** Adds a problem for every key of the node that {@code known} does not hold. */
  void unknownKeys(Set<String> known) {
    for (Iterator<String> it = node.propertyNames().iterator(); it.hasNext(); ) {
      String key = it.next();
      if (!known.contains(key)) {
        problems.add(
            at
                + "."
                + key
                + " is not a known setting; known: "
                + String.join(", ", known.stream().sorted().toList()));
      }
    }
  }

  String string(String key, String dflt) {
    String v = stringOrNull(key);
    return v == null ? dflt : v;
  }

  @Nullable String stringOrNull(String key) {
    JsonNode v = valueOrNull(key, x -> x.isString() || x.isNumber(), "text");
    return v == null ? null : v.asString();
  }

  double number(String key, double dflt) {
    JsonNode v = valueOrNull(key, JsonNode::isNumber, "a number");
    return v == null ? dflt : v.doubleValue();
  }

  int integer(String key, int dflt, int lo, int hi) {
    Integer v = integerOrNull(key, lo, hi);
    return v == null ? dflt : v;
  }

  @Nullable Integer integerOrNull(String key, int lo, int hi) {
    JsonNode v = valueOrNull(key, JsonNode::isIntegralNumber, "a whole number");
    if (v == null) {
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
    JsonNode v =
        valueOrNull(
            key,
            x -> x.isNumber() && x.doubleValue() > 0,
            "a positive number (or left out to take it from the plan)");
    return v == null ? null : v.doubleValue();
  }

  /**
   * The key's value; {@code null} when it is absent or JSON null, and when {@code fits} refuses it,
   * which adds the problem "{@code at.key (value) must be <rule>}".
   */
  private @Nullable JsonNode valueOrNull(String key, Predicate<JsonNode> fits, String rule) {
    JsonNode v = node.get(key);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!fits.test(v)) {
      problems.add(at + "." + key + " (" + v + ") must be " + rule);
      return null;
    }
    return v;
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
