package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.speechscale.simulator.HostSpeeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * How fast the hosts under an endpoint's instances ran while a measurement ran, second by second
 * (additive: {@code host_speed} in the qmax artifact, {@code live.host_speed} in the replay
 * artifact): the median CPU time of the platform's probe unit (larger is slower) among the units
 * that ended in each second. On the local platform the cores of this shared machine switch between
 * speeds for tens of seconds at a time (measurements/simulator-calibration.md, "The host's speed");
 * qmax's log says at what speed the ladder measured the instance, the replay's at what speed the
 * live fleet served, and the prediction takes their ratio ({@link #factors}).
 *
 * @param probe what was measured and where (the platform's description)
 * @param startEpochMs when second 0 began (qmax: the probe's start; replay: the trace's)
 * @param cpuMsPerSecond per host, each second's median; {@code null} for a second in which no unit
 *     ended
 * @param inServiceHost the host of the instance in service when the probe started
 * @param nextLaunchHost the host the endpoint's next launched instance runs on
 */
public record HostSpeedLog(
    String probe,
    long startEpochMs,
    List<List<@Nullable Double>> cpuMsPerSecond,
    int inServiceHost,
    int nextLaunchHost) {

  public HostSpeedLog {
    List<List<@Nullable Double>> copy = new ArrayList<>();
    for (List<@Nullable Double> host : cpuMsPerSecond) {
      copy.add(java.util.Collections.unmodifiableList(new ArrayList<>(host)));
    }
    cpuMsPerSecond = List.copyOf(copy);
    int n = cpuMsPerSecond.size();
    if (n > 0
        && (inServiceHost < 0 || inServiceHost >= n || nextLaunchHost < 0 || nextLaunchHost >= n)) {
      throw new ArtifactException(
          String.format(
              Locale.ROOT,
              "host_speed: in_service_host (%d) and next_launch_host (%d) must each be one of the"
                  + " %d hosts, 0 to %d",
              inServiceHost,
              nextLaunchHost,
              n,
              n - 1));
    }
  }

  /**
   * The log of samples {@code (host, epoch ms, cpu ms)} from {@code startEpochMs} for {@code
   * seconds} seconds: each second the median of the units that ended in it.
   */
  public static HostSpeedLog of(
      String probe,
      long startEpochMs,
      int seconds,
      int hosts,
      int inServiceHost,
      int nextLaunchHost,
      List<double[]> samples) {
    List<List<List<Double>>> bins = new ArrayList<>();
    for (int h = 0; h < hosts; h++) {
      List<List<Double>> host = new ArrayList<>();
      for (int s = 0; s < seconds; s++) {
        host.add(new ArrayList<>());
      }
      bins.add(host);
    }
    for (double[] x : samples) {
      int h = (int) x[0];
      long s = Math.floorDiv((long) x[1] - startEpochMs, 1000L);
      if (h >= 0 && h < hosts && s >= 0 && s < seconds) {
        bins.get(h).get((int) s).add(x[2]);
      }
    }
    List<List<@Nullable Double>> out = new ArrayList<>();
    for (List<List<Double>> host : bins) {
      List<@Nullable Double> medians = new ArrayList<>();
      for (List<Double> second : host) {
        medians.add(second.isEmpty() ? null : median(second));
      }
      out.add(medians);
    }
    return new HostSpeedLog(probe, startEpochMs, out, inServiceHost, nextLaunchHost);
  }

  /** How many seconds of {@code host} have a value. */
  public int secondsWithSamples(int host) {
    int n = 0;
    for (Double v : cpuMsPerSecond.get(host)) {
      n += v == null ? 0 : 1;
    }
    return n;
  }

  /**
   * The {@code q} quantile (0.5: the median) of the in-service host's seconds, or {@code null}
   * without any: the speed a one-instance measurement (qmax's ladder) ran at.
   */
  public @Nullable Double inServiceQuantile(double q) {
    if (cpuMsPerSecond.isEmpty()) {
      return null;
    }
    List<Double> values = new ArrayList<>();
    for (Double v : cpuMsPerSecond.get(inServiceHost)) {
      if (v != null) {
        values.add(v);
      }
    }
    if (values.isEmpty()) {
      return null;
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    double pos = q * (sorted.length - 1);
    int lo = (int) Math.floor(pos);
    int hi = Math.min(sorted.length - 1, lo + 1);
    return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
  }

  /**
   * The mean of the in-service host's seconds from {@code fromEpochMs} to {@code toEpochMs} (every
   * second either touches), or {@code null} when none of them has a value: the speed one rung of a
   * ladder was measured at.
   */
  public @Nullable Double inServiceMean(long fromEpochMs, long toEpochMs) {
    return hostMean(inServiceHost, fromEpochMs, toEpochMs, 1);
  }

  /**
   * The next launched host's mean over the in-service host's mean from {@code fromEpochMs} to
   * {@code toEpochMs}, or {@code null} when either has fewer than {@code minSeconds} seconds with a
   * value in it: how much slower the core under a scale-out's new instance ran than the old one's
   * (1 when both instances share a host), what ttotal divides out of the new instance's cold start.
   */
  public @Nullable Double nextOverInService(long fromEpochMs, long toEpochMs, int minSeconds) {
    Double fresh = hostMean(nextLaunchHost, fromEpochMs, toEpochMs, minSeconds);
    Double old = hostMean(inServiceHost, fromEpochMs, toEpochMs, minSeconds);
    return fresh == null || old == null || !(old > 0) ? null : fresh / old;
  }

  private @Nullable Double hostMean(
      int hostIndex, long fromEpochMs, long toEpochMs, int minSeconds) {
    if (cpuMsPerSecond.isEmpty() || toEpochMs < fromEpochMs) {
      return null;
    }
    List<@Nullable Double> host = cpuMsPerSecond.get(hostIndex);
    long first = Math.max(0, Math.floorDiv(fromEpochMs - startEpochMs, 1000L));
    long last = Math.min(host.size() - 1L, Math.floorDiv(toEpochMs - startEpochMs, 1000L));
    double sum = 0;
    int n = 0;
    for (long s = first; s <= last; s++) {
      Double v = host.get((int) s);
      if (v != null) {
        sum += v;
        n++;
      }
    }
    return n == 0 || n < minSeconds ? null : sum / n;
  }

  /**
   * The simulator's host speeds: each second's factor the host's time over {@code referenceCpuMs}
   * (the speed the instance model was measured at); a second without a value takes the nearest one
   * before it, else after it. Empty ({@link HostSpeeds#NONE}) when a host has no value at all.
   */
  public HostSpeeds factors(double referenceCpuMs, String source) {
    if (!(referenceCpuMs > 0) || Double.isInfinite(referenceCpuMs)) {
      throw new ArtifactException(
          "host speed reference (" + referenceCpuMs + " ms) must be finite and positive");
    }
    List<double[]> out = new ArrayList<>();
    for (List<@Nullable Double> host : cpuMsPerSecond) {
      double[] f = new double[host.size()];
      Arrays.fill(f, Double.NaN);
      double last = Double.NaN;
      for (int s = 0; s < f.length; s++) {
        Double v = host.get(s);
        if (v != null) {
          last = v / referenceCpuMs;
        }
        f[s] = last;
      }
      double next = Double.NaN;
      for (int s = f.length - 1; s >= 0; s--) {
        if (!Double.isNaN(f[s])) {
          next = f[s];
        } else {
          f[s] = next;
        }
      }
      if (f.length == 0 || Double.isNaN(f[0])) {
        return HostSpeeds.NONE;
      }
      out.add(f);
    }
    return out.isEmpty()
        ? HostSpeeds.NONE
        : new HostSpeeds(out, inServiceHost, nextLaunchHost, source);
  }

  /** One line: the hosts' speed range over the log, against {@code referenceCpuMs} when given. */
  @JsonIgnore
  public String summary(@Nullable Double referenceCpuMs) {
    StringBuilder b = new StringBuilder();
    for (int h = 0; h < cpuMsPerSecond.size(); h++) {
      double[] v =
          cpuMsPerSecond.get(h).stream()
              .filter(x -> x != null)
              .mapToDouble(x -> x)
              .sorted()
              .toArray();
      b.append(h == 0 ? "" : "; ").append("host ").append(h);
      if (h == inServiceHost) {
        b.append(" (in service)");
      }
      if (v.length == 0) {
        b.append(": no sample");
        continue;
      }
      double p10 = v[(int) Math.floor(0.1 * (v.length - 1))];
      double p50 = v[(int) Math.floor(0.5 * (v.length - 1))];
      double p90 = v[(int) Math.floor(0.9 * (v.length - 1))];
      b.append(
          String.format(
              Locale.ROOT, ": %.2f / %.2f / %.2f ms (p10/p50/p90, %d s)", p10, p50, p90, v.length));
      if (referenceCpuMs != null) {
        b.append(
            String.format(
                Locale.ROOT,
                ", x%.2f–x%.2f the reference",
                p10 / referenceCpuMs,
                p90 / referenceCpuMs));
      }
    }
    return b.toString();
  }

  private static double median(List<Double> xs) {
    double[] v = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
