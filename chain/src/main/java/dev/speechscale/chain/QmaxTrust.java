package dev.speechscale.chain;

import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxInterval;
import dev.speechscale.artifacts.RungCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** How far a ladder's Q_max can be trusted, in lines for people (the CLI and the report). */
public final class QmaxTrust {
  private QmaxTrust() {}

  /**
   * The Q_max range from the rungs' p95 intervals, then one line per rung that was unstable or
   * limited by something other than the endpoint; nothing for an artifact without rung checks.
   */
  public static List<String> lines(QmaxArtifact a) {
    List<String> out = new ArrayList<>();
    QmaxInterval i = a.qMaxInterval();
    if (i != null) {
      out.add(
          String.format(
              Locale.ROOT,
              "Q_max range %d–%s given each rung's 95%% p95 interval (a rung that was unstable or"
                  + " noisy anchors neither end)",
              i.low(),
              i.high() == null ? "? (no rung surely breaches the SLO)" : i.high().toString()));
    }
    if (a.rungChecks() == null) {
      return out;
    }
    int flagged = 0;
    for (RungCheck c : a.rungChecks()) {
      if (c.finding() != null) {
        flagged++;
        out.add(
            String.format(
                Locale.ROOT,
                "  N=%d (run %d, rung %d): %s",
                c.concurrency(),
                c.runIndex() + 1,
                c.stepIndex() + 1,
                c.finding()));
      }
    }
    if (flagged > 0) {
      out.add(
          flagged
              + " of "
              + a.rungChecks().size()
              + " rungs measured more than the endpoint: re-run qmax on a quiet machine before"
              + " trusting Q_max "
              + a.qMax());
    }
    return out;
  }
}
