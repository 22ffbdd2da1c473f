package dev.speechscale.artifacts;

import dev.speechscale.capacity.Rung;
import dev.speechscale.capacity.ServiceTimeDistribution;
import dev.speechscale.simulator.FirstByte;
import dev.speechscale.simulator.InstanceModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * What a qmax artifact's rungs recorded about first bytes, for the simulator's instance model: each
 * usable rung's mean TTFAB (from its histogram) and throughput, and the lowest usable rung's TTFAB
 * distribution.
 */
public final class FirstByteEvidences {
  private FirstByteEvidences() {}

  /**
   * The evidence, or empty when a usable rung with a throughput lacks its TTFAB histogram (a
   * hand-written or older artifact): the simulator then takes the first byte as a share of S.
   */
  public static Optional<InstanceModel.FirstByteEvidence> of(QmaxArtifact q) {
    Optional<Rung> lowest = q.ladder().lowestUsable();
    if (lowest.isEmpty()) {
      return Optional.empty();
    }
    List<FirstByte.Rung> rungs = new ArrayList<>();
    Histogram lowestTtfab = null;
    for (QmaxStep step : q.steps()) {
      if (!step.isUsable() || step.achievedRps() == null) {
        continue;
      }
      if (step.ttfabHistogram() == null) {
        return Optional.empty();
      }
      Histogram h = Histograms.decode(step.ttfabHistogram());
      if (h.getTotalCount() == 0) {
        continue;
      }
      rungs.add(new FirstByte.Rung(step.concurrency(), h.getMean() / 1e6, step.achievedRps()));
      if (step.concurrency() == lowest.get().concurrency()) {
        if (lowestTtfab == null) {
          lowestTtfab = h.copy();
        } else {
          lowestTtfab.add(h);
        }
      }
    }
    if (lowestTtfab == null || rungs.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new InstanceModel.FirstByteEvidence(
            rungs,
            ServiceTimeDistribution.ofQuantiles(
                Histograms.quantilesSeconds(lowestTtfab, 1024),
                "measured TTFAB histogram at concurrency " + lowest.get().concurrency())));
  }
}
