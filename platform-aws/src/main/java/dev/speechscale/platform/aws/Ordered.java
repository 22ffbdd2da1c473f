package dev.speechscale.platform.aws;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Maps that keep their insertion order. {@code Map.of} iterates in an order that changes from one
 * JVM run to the next, and CDK renders maps in iteration order: a synthesized template must not
 * change between two runs over the same inputs, or every deploy shows a spurious diff.
 */
final class Ordered {
  private Ordered() {}

  /** {@code key, value, key, value, ...} in that order. */
  @SuppressWarnings("unchecked")
  static <V> Map<String, V> map(Object... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("keys and values must pair up");
    }
    Map<String, V> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put((String) keysAndValues[i], (V) keysAndValues[i + 1]);
    }
    return Collections.unmodifiableMap(m);
  }
}
