package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where and how an artifact was produced.
 *
 * @param host the machine's name
 * @param jvm the runtime that produced it
 * @param os operating system and architecture
 * @param command the command line that wrote it
 * @param parameters the effective parameters, defaults included
 * @param cpuLimit the CPU limit the measured instance ran under, read back from it; {@code null}
 *     when not recorded (an older artifact, a pure computation, a platform without a sub-instance
 *     limit)
 */
public record Provenance(
    String host,
    String jvm,
    String os,
    String command,
    Map<String, Object> parameters,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable EnforcedCpu cpuLimit) {

  public Provenance {
    parameters = parameters == null ? Map.of() : copy(parameters);
  }

  /** Provenance without a CPU limit. */
  public Provenance(
      String host, String jvm, String os, String command, Map<String, Object> parameters) {
    this(host, jvm, os, command, parameters, null);
  }

  /** This provenance with the CPU limit the measurement ran under. */
  public Provenance withCpuLimit(@Nullable EnforcedCpu limit) {
    return new Provenance(host, jvm, os, command, parameters, limit);
  }

  /** The CPU limit recorded in a possibly missing provenance, or {@code null}. */
  public static @Nullable EnforcedCpu cpuLimitOf(@Nullable Provenance p) {
    return p == null ? null : p.cpuLimit();
  }

  /** Provenance of the current process. */
  public static Provenance capture(String command, Map<String, Object> parameters) {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "unknown (" + e.getMessage() + ")";
    }
    return new Provenance(
        host,
        System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
        System.getProperty("os.name") + " " + System.getProperty("os.arch"),
        command,
        parameters);
  }

  private static Map<String, Object> copy(Map<String, Object> in) {
    Map<String, Object> out = new LinkedHashMap<>();
    in.forEach((k, v) -> out.put(k, v));
    return java.util.Collections.unmodifiableMap(out);
  }
}
