package dev.speechscale.artifacts;

import dev.speechscale.platform.Fingerprint;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The fingerprint of what was measured: instance type, image digest and container environment.
 *
 * @param instanceType {@code ml.g5.xlarge}, {@code local.2cpu}, ...
 * @param imageDigest the container image digest (or the local build digest); {@code null} if
 *     unknown
 * @param containerEnv the environment the container ran with
 */
public record DeployedConfig(
    String instanceType, @Nullable String imageDigest, Map<String, String> containerEnv) {

  public DeployedConfig {
    Objects.requireNonNull(instanceType, "instance_type");
    containerEnv = Fingerprint.sortedEnv(containerEnv);
  }

  /**
   * Instance type without {@code ml.} and without dots: {@code ml.g5.xlarge} → {@code g5xlarge}.
   */
  public String family() {
    String t = instanceType.toLowerCase(Locale.ROOT);
    if (t.startsWith("ml.")) {
      t = t.substring(3);
    }
    return t.replace(".", "");
  }

  /** First 8 hex digits of the digest (after any {@code sha256:} prefix), or {@code nodigest}. */
  public String digest8() {
    if (imageDigest == null || imageDigest.isBlank()) {
      return "nodigest";
    }
    String hex =
        imageDigest.contains(":")
            ? imageDigest.substring(imageDigest.indexOf(':') + 1)
            : imageDigest;
    hex = hex.toLowerCase(Locale.ROOT);
    return hex.length() <= 8 ? hex : hex.substring(0, 8);
  }

  /** {@code <family>-<digest8>}, e.g. {@code g5xlarge-8b1b96bc}. */
  public String slug() {
    return family() + "-" + digest8();
  }

  /** The slug of a possibly missing fingerprint. */
  public static String slugOf(@Nullable DeployedConfig config) {
    return config == null ? "no-fingerprint" : config.slug();
  }

  /**
   * What differs between a measured fingerprint and a deployment's, field by field, each with both
   * values: {@code container_env.ENGINE: unset in the measurement, 'kokoro' in the deployment}. The
   * slug holds only the instance family and 8 digits of the digest, so two different fingerprints
   * often share one; this names what the slug cannot. Empty when they are the same.
   */
  public static java.util.List<String> differences(
      @Nullable DeployedConfig measured, @Nullable DeployedConfig deployed) {
    if (measured == null || deployed == null) {
      return measured == deployed
          ? java.util.List.of("neither has a fingerprint")
          : java.util.List.of(
              (measured == null ? "the measurement" : "the deployment") + " has no fingerprint");
    }
    java.util.List<String> out = new java.util.ArrayList<>();
    if (!measured.instanceType.equals(deployed.instanceType)) {
      out.add(field("instance_type", measured.instanceType, deployed.instanceType));
    }
    if (!Objects.equals(measured.imageDigest, deployed.imageDigest)) {
      out.add(field("image_digest", measured.imageDigest, deployed.imageDigest));
    }
    java.util.SortedSet<String> keys = new java.util.TreeSet<>(measured.containerEnv.keySet());
    keys.addAll(deployed.containerEnv.keySet());
    for (String key : keys) {
      String m = measured.containerEnv.get(key);
      String d = deployed.containerEnv.get(key);
      if (!Objects.equals(m, d)) {
        out.add(field("container_env." + key, m, d));
      }
    }
    return java.util.List.copyOf(out);
  }

  private static String field(String name, @Nullable String measured, @Nullable String deployed) {
    return name
        + ": "
        + shown(measured)
        + " in the measurement, "
        + shown(deployed)
        + " in the deployment";
  }

  private static String shown(@Nullable String v) {
    return v == null ? "unset" : "'" + v + "'";
  }

  /** Whether two fingerprints describe the same deployment; a missing one never matches. */
  public static boolean sameDeployment(@Nullable DeployedConfig a, @Nullable DeployedConfig b) {
    return a != null && b != null && a.equals(b);
  }
}
