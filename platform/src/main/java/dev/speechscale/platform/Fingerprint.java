package dev.speechscale.platform;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What is deployed, as the platform reports it: the identity a measurement is tied to.
 *
 * @param instanceType {@code ml.g5.xlarge}, {@code local.1cpu}, ...
 * @param imageDigest the container image digest (local: a digest of the server build and engine
 *     settings)
 * @param containerEnv the container's environment
 */
public record Fingerprint(
    String instanceType, @Nullable String imageDigest, Map<String, String> containerEnv) {
  public Fingerprint {
    Objects.requireNonNull(instanceType, "instanceType");
    containerEnv = sortedEnv(containerEnv);
  }

  /**
   * A container environment as every fingerprint keeps it (the artifacts' {@code deployed_config}
   * too): sorted by name and unmodifiable; none for {@code null}.
   */
  public static Map<String, String> sortedEnv(@Nullable Map<String, String> containerEnv) {
    return containerEnv == null
        ? Map.of()
        : java.util.Collections.unmodifiableMap(new TreeMap<>(containerEnv));
  }
}
