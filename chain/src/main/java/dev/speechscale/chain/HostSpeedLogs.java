package dev.speechscale.chain;

import dev.speechscale.artifacts.HostSpeedLog;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.loadgen.LadderHooks;
import dev.speechscale.platform.HostSpeedProbe;
import dev.speechscale.platform.Platform;
import dev.speechscale.simulator.HostSpeeds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The hosts' speed around a measurement: the platform's probe started before it (qmax's ladder, a
 * replay's warm-up and trace), its samples kept as a {@link HostSpeedLog}, and whether a replay's
 * prediction takes them (measurements/simulator-calibration.md, "The host's speed").
 */
public final class HostSpeedLogs {
  private HostSpeedLogs() {}

  /** Whether a replay's prediction takes the hosts' speed measured during the live run. */
  public enum Source {
    /** Probe the hosts during the run and slow each simulated instance as its host was slowed. */
    LIVE,
    /** Neither probe nor apply: every instance at the speed the ladder measured. */
    OFF;

    /** As written on the command line. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The platform's probe of the endpoint's hosts, started now, or empty (and why, as progress). */
  static Optional<HostSpeedProbe> start(
      Platform platform, String endpoint, Consumer<String> progress) {
    try {
      Optional<HostSpeedProbe> probe = platform.startHostSpeedProbe(endpoint);
      probe.ifPresent(p -> progress.accept("host speed: probing, " + p.describe()));
      return probe;
    } catch (RuntimeException e) {
      progress.accept("host speed: not probed: " + e.getMessage());
      return Optional.empty();
    }
  }

  /**
   * The in-service host's change of speed between two windows, for qmax's drift rewarm: the median
   * probe time per unit over the second window against over the first, in percent (positive:
   * slower); {@code null} when either window has no sample. The median, as the probe shares the
   * machine and one preempted unit reads many times slower.
   */
  static LadderHooks.HostSpeedChange change(HostSpeedProbe probe) {
    return (firstFrom, firstTo, againFrom, againTo) -> {
      Double first = median(probe, firstFrom, firstTo);
      Double again = median(probe, againFrom, againTo);
      return first == null || again == null || !(first > 0) ? null : 100 * (again - first) / first;
    };
  }

  private static @Nullable Double median(HostSpeedProbe probe, Instant from, Instant to) {
    int host = probe.inServiceHost();
    double[] ms =
        probe.samples().stream()
            .filter(s ->
                s.host() == host
                    && s.atEpochMs() >= from.toEpochMilli()
                    && s.atEpochMs() < to.toEpochMilli())
            .mapToDouble(HostSpeedProbe.Sample::cpuMs)
            .sorted()
            .toArray();
    if (ms.length == 0) {
      return null;
    }
    int mid = ms.length / 2;
    return ms.length % 2 == 1 ? ms[mid] : (ms[mid - 1] + ms[mid]) / 2;
  }

  /** The probe's samples from {@code start} for {@code seconds}, second by second. */
  static HostSpeedLog log(HostSpeedProbe probe, Instant start, int seconds) {
    List<double[]> samples = new ArrayList<>();
    for (HostSpeedProbe.Sample s : probe.samples()) {
      samples.add(new double[] {s.host(), s.atEpochMs(), s.cpuMs()});
    }
    return HostSpeedLog.of(
        probe.describe(),
        start.toEpochMilli(),
        Math.max(0, seconds),
        probe.hosts(),
        probe.inServiceHost(),
        probe.nextLaunchHost(),
        samples);
  }

  /**
   * What a replay's prediction does with the hosts' speed.
   *
   * @param speeds the factors it applies ({@link HostSpeeds#NONE}: none)
   * @param note why, for the artifact and the table
   */
  public record Decision(HostSpeeds speeds, String note) {}

  /**
   * The prediction's host speeds: the live log's seconds over the speed the instance model was
   * measured at, when the source is live and both sides were probed.
   *
   * @param live the hosts during the trace, or {@code null} when not probed
   * @param reference the speed the qmax ladder measured the model's X_sat at ({@link
   *     QmaxArtifact#hostSpeedReference}), or {@code null} when the qmax artifact has no host log
   * @param qmaxFile the qmax artifact, for the note
   */
  public static Decision decide(
      @Nullable HostSpeedLog live,
      QmaxArtifact.@Nullable HostSpeedReference reference,
      Source source,
      String qmaxFile) {
    if (source == Source.OFF) {
      return new Decision(HostSpeeds.NONE, "not applied (--host-speed off)");
    }
    if (live == null) {
      return new Decision(
          HostSpeeds.NONE, "not applied: the platform did not probe its hosts during the run");
    }
    if (reference == null) {
      return new Decision(
          HostSpeeds.NONE,
          "not applied: "
              + qmaxFile
              + " has no host_speed (measured before qmax probed its host, or where nothing"
              + " probes it); re-measure qmax to have one");
    }
    HostSpeeds speeds = live.factors(reference.cpuMs(), "live.host_speed over " + qmaxFile);
    if (speeds.none()) {
      return new Decision(
          HostSpeeds.NONE, "not applied: a host has no probe sample during the trace");
    }
    return new Decision(
        speeds,
        String.format(
            Locale.ROOT,
            "applied: each instance's service time x its host's probe time over %.3f ms (%s),"
                + " second by second; %s",
            reference.cpuMs(),
            reference.source(),
            live.summary(reference.cpuMs())));
  }
}
