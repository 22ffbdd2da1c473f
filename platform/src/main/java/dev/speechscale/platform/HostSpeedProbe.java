package dev.speechscale.platform;

import java.util.List;

/**
 * A running measurement of how fast the hosts under an endpoint's instances do the engine's kind of
 * work: the CPU time of one fixed unit, sampled every fraction of a second on each host. On a
 * shared machine the hosts' speed moves while a measurement runs, and an instance's service time
 * follows its host; a measurement that records it can say what it measured, and a prediction can be
 * given the host the live fleet had. Started by {@link Platform#startHostSpeedProbe}; closing it
 * stops every probe process.
 */
public interface HostSpeedProbe extends AutoCloseable {
  /**
   * How many hosts are probed: every host the platform places the endpoint's instances on, which it
   * does round robin (a launch on host {@code h} is followed by one on {@code h + 1}, the last by
   * host 0).
   */
  int hosts();

  /** The host of the instance in service when the probe started. */
  int inServiceHost();

  /** The host the endpoint's next launched instance will run on. */
  int nextLaunchHost();

  /** Every sample so far, in the order they arrived. */
  List<Sample> samples();

  /** What is measured and where, for the artifact. */
  String describe();

  /** Stops the probes; the samples taken stay readable. */
  @Override
  void close();

  /**
   * One unit of work on one host.
   *
   * @param host the host index, see {@link #hosts()}
   * @param atEpochMs when the unit ended
   * @param cpuMs the CPU time the unit took: larger is slower
   */
  record Sample(int host, long atEpochMs, double cpuMs) {}
}
