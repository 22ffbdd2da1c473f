package dev.speechscale.platform.local;

import dev.speechscale.platform.HostSpeedProbe;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The local platform's host speed probe: one {@code dev.speechscale.server.HostProbe} process per
 * group of cores an instance is pinned to, pinned there itself with {@code taskset} (outside the
 * instance's cgroup, so its few milliseconds a sample do not come out of the instance's quota),
 * each timing a Flite synthesis of a fixed sentence in CPU time every {@link #PERIOD_MS}.
 *
 * <p>Hosts follow the supervisor's pinning: the instance launched n-th ({@code i-local-n}) is
 * pinned to the group {@code (n - 1) mod G} of its type's whole cores, the machine cut into {@code
 * G} consecutive groups. Nothing is probed when the instance is not pinned to fewer cores than the
 * machine has (it then shares them all) or {@code taskset} is missing.
 */
final class LocalHostProbe implements HostSpeedProbe {
  /** How often each probe runs its unit. */
  static final long PERIOD_MS = 500;

  static final String TASKSET = "/usr/bin/taskset";

  private final List<Process> processes;
  private final List<List<Integer>> hostCores;
  private final int inServiceHost;
  private final int nextLaunchHost;
  private final List<Sample> samples = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();

  private LocalHostProbe(
      List<List<Integer>> hostCores, int inServiceHost, int nextLaunchHost, ServerBuild build)
      throws IOException {
    this.hostCores = hostCores;
    this.inServiceHost = inServiceHost;
    this.nextLaunchHost = nextLaunchHost;
    this.processes = new ArrayList<>();
    try {
      for (int h = 0; h < hostCores.size(); h++) {
        Process p =
            new ProcessBuilder(command(build, hostCores.get(h))).redirectErrorStream(true).start();
        processes.add(p);
        int host = h;
        Thread reader = new Thread(() -> read(host, p), "host-probe-" + h);
        reader.setDaemon(true);
        reader.start();
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * Starts probing the hosts of an endpoint whose in-service instance has process {@code pid} and
   * was launched {@code launch}-th, {@code launches} launched so far; empty (and why, in {@code
   * why}) when its cores cannot be told apart from the machine's.
   */
  static Optional<HostSpeedProbe> start(
      long pid, int launch, int launches, ServerBuild build, StringBuilder why) {
    int machine = Runtime.getRuntime().availableProcessors();
    List<Integer> allowed;
    try {
      allowed = allowedCores(Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")));
    } catch (IOException | RuntimeException e) {
      why.append("cannot read instance ")
          .append(pid)
          .append("'s affinity: ")
          .append(e.getMessage());
      return Optional.empty();
    }
    List<List<Integer>> hosts = hosts(allowed.size(), machine);
    if (hosts.isEmpty()) {
      why.append(
          String.format(
              Locale.ROOT,
              "the instance may run on %d of the machine's %d cores, so it has no host of its own",
              allowed.size(),
              machine));
      return Optional.empty();
    }
    if (!Files.isExecutable(Path.of(TASKSET))) {
      why.append(TASKSET).append(" is missing (apt-get install util-linux)");
      return Optional.empty();
    }
    int host = (launch - 1) % hosts.size();
    if (!hosts.get(host).equals(allowed)) {
      why.append(
          String.format(
              Locale.ROOT,
              "instance %d runs on cores %s, not on the group %s the platform's pinning gives it",
              launch,
              allowed,
              hosts.get(host)));
      return Optional.empty();
    }
    try {
      return Optional.of(new LocalHostProbe(hosts, host, launches % hosts.size(), build));
    } catch (IOException e) {
      why.append("the probe did not start: ").append(e.getMessage());
      return Optional.empty();
    }
  }

  /**
   * The hosts of instances pinned to {@code k} cores each: the machine's consecutive groups of
   * {@code k} cores, as the supervisor pins them. Empty when an instance is not held to fewer cores
   * than the machine has.
   */
  static List<List<Integer>> hosts(int k, int machine) {
    if (k < 1 || k >= machine) {
      return List.of();
    }
    List<List<Integer>> out = new ArrayList<>();
    for (int j = 0; j < machine / k; j++) {
      List<Integer> cores = new ArrayList<>();
      for (int c = 0; c < k; c++) {
        cores.add(j * k + c);
      }
      out.add(cores);
    }
    return out;
  }

  /** The cores of {@code Cpus_allowed_list} in a {@code /proc/<pid>/status}, in order. */
  static List<Integer> allowedCores(List<String> status) {
    for (String line : status) {
      if (line.startsWith("Cpus_allowed_list:")) {
        TreeSet<Integer> cores = new TreeSet<>();
        for (String part : line.substring(line.indexOf(':') + 1).trim().split(",")) {
          String[] range = part.trim().split("-");
          int from = Integer.parseInt(range[0].trim());
          int to = range.length > 1 ? Integer.parseInt(range[1].trim()) : from;
          for (int c = from; c <= to; c++) {
            cores.add(c);
          }
        }
        return List.copyOf(cores);
      }
    }
    throw new IllegalStateException("no Cpus_allowed_list line");
  }

  static List<String> command(ServerBuild build, List<Integer> cores) {
    StringBuilder set = new StringBuilder();
    for (int c : cores) {
      set.append(set.isEmpty() ? "" : ",").append(c);
    }
    return List.of(
        TASKSET,
        "-c",
        set.toString(),
        build.javaBinary(),
        "--enable-native-access=ALL-UNNAMED",
        "-XX:+UseSerialGC",
        "-Xss512k",
        "-XX:ActiveProcessorCount=" + cores.size(),
        "-cp",
        build.classpath(),
        "dev.speechscale.server.HostProbe",
        Long.toString(PERIOD_MS));
  }

  private void read(int host, Process p) {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] f = line.trim().split(" ");
        if (f.length == 2 && f[0].chars().allMatch(Character::isDigit)) {
          Sample s = new Sample(host, Long.parseLong(f[0]), Long.parseLong(f[1]) / 1000.0);
          synchronized (samples) {
            samples.add(s);
          }
        } else if (!line.equals("ready") && !line.isBlank()) {
          synchronized (problems) {
            if (problems.size() < 5) {
              problems.add("host " + host + ": " + line.trim());
            }
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // the process was stopped: its samples so far stay
    }
  }

  @Override
  public int hosts() {
    return hostCores.size();
  }

  @Override
  public int inServiceHost() {
    return inServiceHost;
  }

  @Override
  public int nextLaunchHost() {
    return nextLaunchHost;
  }

  @Override
  public List<Sample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  @Override
  public String describe() {
    StringBuilder b =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "CPU time of HostProbe's unit (a Flite synthesis of its fixed short sentence) every"
                    + " %d ms, one probe per host pinned to its cores:",
                PERIOD_MS));
    for (int h = 0; h < hostCores.size(); h++) {
      b.append(h == 0 ? " " : ", ")
          .append("host ")
          .append(h)
          .append(" cores ")
          .append(hostCores.get(h));
    }
    synchronized (problems) {
      if (!problems.isEmpty()) {
        b.append("; the probes said: ").append(String.join("; ", problems));
      }
    }
    return b.toString();
  }

  @Override
  public void close() {
    for (Process p : processes) {
      try {
        p.getOutputStream().close();
      } catch (IOException e) {
        // already gone
      }
    }
    for (Process p : processes) {
      try {
        if (!p.waitFor(2, TimeUnit.SECONDS)) {
          p.destroy();
          if (!p.waitFor(2, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(2, TimeUnit.SECONDS);
          }
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
