package dev.speechscale.chain;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.loadgen.LadderListener;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * What {@code quickstart} prints while it runs: a {@code [n/10] step} line per step, indented
 * details under it, and each step's figures once it is done.
 *
 * @param err where progress goes
 * @param ladder the qmax ladder's own progress printer
 */
record QuickstartProgress(PrintWriter err, LadderListener ladder) {

  /** Progress to {@code err}, the ladder's rungs not printed. */
  QuickstartProgress(PrintWriter err) {
    this(err, LadderListener.NONE);
  }

  void step(int n, String what) {
    err.printf(Locale.ROOT, "[%d/10] %s%n", n, what);
    err.flush();
  }

  /** An indented progress line under the current step. */
  void detail(String line) {
    err.println("  " + line);
  }

  /**
   * The ladder's Q_max and uncontended S_mean; S_mean is unknown when the lowest rung was not
   * usable (the plan step then refuses, naming the file).
   */
  void qmax(QmaxArtifact q) {
    Double sMeanS = q.sMeanS();
    err.printf(
        Locale.ROOT,
        "  Q_max %d (%s), S_mean %s%n",
        q.qMax(),
        Boolean.TRUE.equals(q.qMaxBracketed()) ? "bracketed" : "lower bound",
        sMeanS == null
            ? "unknown (no usable uncontended rung)"
            : String.format(Locale.ROOT, "%.1f ms", sMeanS * 1000));
  }

  void ttotal(TtotalArtifact t) {
    err.printf(
        Locale.ROOT,
        "  T_total %.1f s measured + %.0f s policy lag bound%n",
        t.tTotalS(),
        t.policyLagBoundS());
  }

  void plan(PlanArtifact plan) {
    err.printf(
        Locale.ROOT,
        "  verdict %s: target %s, scale-in %s, cooldowns %d s / %d s,"
            + " queue %d, %d..%d instances%n",
        plan.verdict().label(),
        plan.scalingTargetValue(),
        plan.scaleInThreshold(),
        plan.scaleOutCooldownS(),
        plan.scaleInCooldownS(),
        plan.queueMaxDepth(),
        plan.minInstances(),
        plan.maxInstances());
  }

  /** The judged figures (not the per-minute ones), predicted beside measured. */
  void replay(ReplayArtifact a) {
    a.comparison().stream()
        .filter(r -> r.minute() == null)
        .forEach(r ->
            err.printf(
                Locale.ROOT,
                "  %s: predicted %s, measured %s (%s)%n",
                r.figure(),
                r.predicted() == null ? "-" : String.format(Locale.ROOT, "%.2f", r.predicted()),
                r.measured() == null ? "-" : String.format(Locale.ROOT, "%.2f", r.measured()),
                r.result().label()));
  }

  void replayNotRun(String why) {
    err.println("  replay not run: " + why);
  }

  void destroying(String endpoint) {
    err.println("destroying " + endpoint);
  }
}
