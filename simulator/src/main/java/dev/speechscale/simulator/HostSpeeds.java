package dev.speechscale.simulator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How fast the hosts under the fleet ran, second by second, against the speed the instance model
 * was measured at: a factor on every request's engine occupancy, time in flight and first byte. On
 * a dedicated host (AWS) there is none ({@link #NONE}). On a shared machine there is: the local
 * fleet's cores (two vCPUs of a shared host) switch between two speeds, about 0.5 and 0.9 of the
 * fastest, for tens of seconds at a time, whoever else is running
 * (measurements/simulator-calibration.md, "The host's speed"), and an instance's service time
 * follows its core. {@code replay} measures each core's speed during the live run and gives the
 * prediction the factor, so the model is compared with the fleet under the same host.
 *
 * <p>Hosts are assigned as the local platform pins instances, round robin: the fleet's first
 * instance (launch 0) runs on {@code firstHost}, the instance launched next on {@code nextHost},
 * each later one on the host after its predecessor's (the last host followed by host 0). A fleet
 * that starts with more than one instance gets its later ones by the same rule. Second {@code s} of
 * a host's series holds from {@code s} to {@code s + 1} of the trace; past the last second the last
 * one holds, before 0 the first.
 *
 * @param factorsBySecond per host, the service-time factor of each second of the trace (1: the
 *     speed the model was measured at; 2: half that speed)
 * @param firstHost the host of the first instance
 * @param nextHost the host of the second instance launched
 * @param source where the factors came from, for the artifact
 */
public record HostSpeeds(
    List<double[]> factorsBySecond, int firstHost, int nextHost, String source) {
  /** Every host runs at the speed the model was measured at. */
  public static final HostSpeeds NONE = new HostSpeeds(List.of(), "none");

  /** Plain round robin from host 0: the k-th launch on host {@code k mod hosts}. */
  public HostSpeeds(List<double[]> factorsBySecond, String source) {
    this(factorsBySecond, 0, factorsBySecond.size() > 1 ? 1 : 0, source);
  }

  public HostSpeeds {
    Objects.requireNonNull(source, "source");
    List<double[]> copy = new ArrayList<>();
    for (int h = 0; h < factorsBySecond.size(); h++) {
      double[] f = factorsBySecond.get(h).clone();
      if (f.length == 0) {
        throw new SimulatorException(
            "host " + h + "'s speed series is empty; give at least one second (" + source + ")");
      }
      for (int s = 0; s < f.length; s++) {
        if (!(f[s] > 0) || Double.isInfinite(f[s])) {
          throw new SimulatorException(
              String.format(
                  Locale.ROOT,
                  "host %d's service-time factor at second %d (%s) must be finite and positive"
                      + " (%s)",
                  h,
                  s,
                  f[s],
                  source));
        }
      }
      copy.add(f);
    }
    factorsBySecond = List.copyOf(copy);
    int n = factorsBySecond.size();
    if (n > 0 && (firstHost < 0 || firstHost >= n || nextHost < 0 || nextHost >= n)) {
      throw new SimulatorException(
          String.format(
              Locale.ROOT,
              "the first instance's host (%d) and the next one's (%d) must each be one of the %d"
                  + " hosts, 0 to %d (%s)",
              firstHost,
              nextHost,
              n,
              n - 1,
              source));
    }
  }

  /** Each host's series, copied (the record keeps its own). */
  @Override
  public List<double[]> factorsBySecond() {
    List<double[]> out = new ArrayList<>();
    for (double[] f : factorsBySecond) {
      out.add(f.clone());
    }
    return out;
  }

  /** True when every host runs at the model's speed. */
  public boolean none() {
    return factorsBySecond.isEmpty();
  }

  /** How many hosts the instances are spread over (0 with none). */
  public int hosts() {
    return factorsBySecond.size();
  }

  /**
   * The factor for the instance launched {@code launch}-th at trace time {@code t} seconds.
   *
   * @param launch 0 for the first instance of the initial fleet
   */
  public double factor(long launch, double t) {
    if (factorsBySecond.isEmpty()) {
      return 1;
    }
    int n = factorsBySecond.size();
    int host = launch == 0 ? firstHost : (int) ((nextHost + launch - 1) % n);
    double[] f = factorsBySecond.get(host); // not copied
    int s = t <= 0 ? 0 : (int) Math.min(f.length - 1, (long) t);
    return f[s];
  }

  /** One line for the model's derivation. */
  public String describe() {
    if (none()) {
      return "hosts at the measured speed throughout";
    }
    StringBuilder b = new StringBuilder("host speed factors (service time, per second) on ");
    b.append(hosts()).append(hosts() == 1 ? " host: " : " hosts: ");
    b.append(
        String.format(Locale.ROOT, "first instance on #%d, next on #%d; ", firstHost, nextHost));
    for (int h = 0; h < hosts(); h++) {
      double[] f = factorsBySecond.get(h);
      double min = Double.MAX_VALUE;
      double max = 0;
      double sum = 0;
      for (double v : f) {
        min = Math.min(min, v);
        max = Math.max(max, v);
        sum += v;
      }
      b.append(
          String.format(
              Locale.ROOT,
              "%s#%d %.2f–%.2f (mean %.2f)",
              h == 0 ? "" : ", ",
              h,
              min,
              max,
              sum / f.length));
    }
    return b.append(" (").append(source).append(')').toString();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof HostSpeeds other)
        || !source.equals(other.source)
        || firstHost != other.firstHost
        || nextHost != other.nextHost) {
      return false;
    }
    if (other.factorsBySecond.size() != factorsBySecond.size()) {
      return false;
    }
    for (int h = 0; h < factorsBySecond.size(); h++) {
      if (!Arrays.equals(factorsBySecond.get(h), other.factorsBySecond.get(h))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = 31 * (31 * source.hashCode() + firstHost) + nextHost;
    for (double[] f : factorsBySecond) {
      h = 31 * h + Arrays.hashCode(f);
    }
    return h;
  }

  @Override
  public String toString() {
    return describe();
  }
}
