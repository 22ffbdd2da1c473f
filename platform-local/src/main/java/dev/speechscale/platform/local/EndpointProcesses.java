package dev.speechscale.platform.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds every live process of one local endpoint from what the processes themselves carry, not from
 * the state files (issue 11): {@code endpoint.json} may be damaged, and {@code status.json} is
 * written once a second, so an instance started in the second before its supervisor died is in
 * neither. The supervisor is the process whose command line runs {@link SupervisorMain} on the
 * endpoint's directory; each instance carries {@value #ENV} (the directory) in its environment.
 * Reads {@code /proc}; processes of other users, which it cannot read, are never matched.
 */
final class EndpointProcesses {
  /** The environment variable each instance carries: its endpoint's state directory. */
  static final String ENV = "SPEECHSCALE_ENDPOINT_DIR";

  private static final Path PROC = Path.of("/proc");

  private EndpointProcesses() {}

  /** The value {@value #ENV} holds for {@code dir}. */
  static String key(Path dir) {
    return dir.toAbsolutePath().normalize().toString();
  }

  /**
   * The endpoint's live processes: supervisors first (stopping one first keeps it from starting
   * replacements), then instances. Empty where there is no {@code /proc}.
   */
  static List<ProcessHandle> find(Path dir) {
    String key = key(dir);
    List<ProcessHandle> supervisors = new ArrayList<>();
    List<ProcessHandle> instances = new ArrayList<>();
    long self = ProcessHandle.current().pid();
    if (!Files.isDirectory(PROC)) {
      return List.of();
    }
    try (Stream<Path> all = Files.list(PROC)) {
      for (Path p : all.toList()) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit) || Long.parseLong(name) == self) {
          continue;
        }
        long pid = Long.parseLong(name);
        List<String> cmdline = nulSeparated(p.resolve("cmdline"));
        if (cmdline.contains(SupervisorMain.class.getName())
            && cmdline.stream().anyMatch(a -> a.equals(key) || a.equals(dir.toString()))) {
          ProcessHandle.of(pid).ifPresent(supervisors::add);
        } else if (nulSeparated(p.resolve("environ")).contains(ENV + "=" + key)) {
          ProcessHandle.of(pid).ifPresent(instances::add);
        }
      }
    } catch (IOException e) {
      return List.copyOf(supervisors); // /proc vanished mid-scan: what was found so far
    }
    List<ProcessHandle> found = new ArrayList<>(supervisors);
    found.addAll(instances);
    return List.copyOf(found);
  }

  private static List<String> nulSeparated(Path file) {
    try {
      return Arrays.asList(
          new String(Files.readAllBytes(file), StandardCharsets.UTF_8).split("\0"));
    } catch (IOException | SecurityException gone) {
      return List.of(); // exited meanwhile, or not ours to read
    }
  }
}
