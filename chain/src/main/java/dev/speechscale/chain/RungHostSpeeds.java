package dev.speechscale.chain;

import dev.speechscale.artifacts.HostSpeedLog;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.loadgen.RungReport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each step of a ladder with the speed its host ran at while the rung was measured ({@link
 * QmaxStep#hostCpuMs}): the mean of the host log's in-service seconds over the rung's measurement
 * window, the window its throughput and latencies come from. A rung measured while its host ran
 * slow then reads as a slow host, not as a slow instance (measurements/simulator-calibration.md,
 * "Runs h, i and j").
 */
final class RungHostSpeeds {
  private RungHostSpeeds() {}

  /**
   * {@code steps} each with its host's mean probe time over its rung's window in {@code reports}; a
   * step without a report, or whose seconds have no probe sample, is left without one. The drift
   * check's re-measured rungs are not steps and are skipped.
   */
  static List<QmaxStep> of(List<QmaxStep> steps, List<RungReport> reports, HostSpeedLog log) {
    Map<List<Integer>, RungReport> byStep = new HashMap<>();
    for (RungReport r : reports) {
      if (r.phase() != RungReport.Phase.RECHECK) {
        byStep.put(List.of(r.runIndex(), r.stepIndex()), r);
      }
    }
    List<QmaxStep> out = new ArrayList<>(steps.size());
    for (QmaxStep s : steps) {
      RungReport r = byStep.get(List.of(s.run(), s.stepIndex() == null ? 0 : s.stepIndex()));
      out.add(
          r == null
              ? s
              : s.withHostCpuMs(
                  log.inServiceMean(r.windowStart().toEpochMilli(), r.windowEnd().toEpochMilli())));
    }
    return out;
  }
}
