package dev.speechscale.artifacts;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where and how an artifact was produced.
 *
 * @param host the machine's name
 * @param jvm the runtime that produced it
 * @param os operating system and architecture
 * @param command the command line that wrote it
 * @param parameters the effective parameters, defaults included
 */
public record Provenance(
    String host, String jvm, String os, String command, Map<String, Object> parameters) {

  public Provenance {
    parameters = parameters == null ? Map.of() : copy(parameters);
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
