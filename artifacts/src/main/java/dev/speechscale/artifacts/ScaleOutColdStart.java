package dev.speechscale.artifacts;

import dev.speechscale.simulator.ColdStart;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Which cold start the simulator gives the instances a scale-out starts: from a ttotal artifact
 * that measured the new instance against the old one ({@link NewInstanceService}, pooled over every
 * artifact and run given; each window's factor for the requests the new instance started in it),
 * else from qmax's warm-up ({@link QmaxArtifact#coldStart}). The ttotal one is measured on the
 * instance a scale-out really starts, for a minute, against a warm neighbour on the same probe; the
 * warm-up's ramp is a fresh deploy's first 64–128 requests against the ladder, over 4–8 s into a
 * surge, while on the local fleet the new instance stayed ×1.3–1.5 slower for 200–300 requests, ~40
 * s (measurements/simulator-calibration.md, "Run o"). The replay's own instance, deployed for it,
 * goes on along the same cold start from the requests its warm-up served.
 */
public final class ScaleOutColdStart {
  private ScaleOutColdStart() {}

  /** The cold start for these inputs (see the class comment). */
  public static ColdStart of(
      List<StartupDelaySamples.Input> ttotals, QmaxArtifact qmax, String qmaxFile) {
    List<NewInstanceService> measured = new ArrayList<>();
    List<String> files = new ArrayList<>();
    for (StartupDelaySamples.Input in : ttotals) {
      NewInstanceService n = in.artifact().newInstance();
      if (n != null && n.measured()) {
        measured.add(n);
        files.add(String.valueOf(Path.of(in.file()).getFileName()));
      }
    }
    NewInstanceService pooled = NewInstanceService.pooled(measured);
    if (pooled == null || !pooled.measured()) {
      return qmax.coldStart(qmaxFile);
    }
    String source =
        "the scale-out's new instance against the old one per "
            + Math.round(pooled.windowSeconds())
            + " s in service in "
            + String.join(", ", files);
    return pooled.coldStart(source);
  }
}
