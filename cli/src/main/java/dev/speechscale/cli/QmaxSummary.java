package dev.speechscale.cli;

import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.chain.Flags;
import dev.speechscale.chain.QmaxBreakdown;
import dev.speechscale.chain.QmaxTrust;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What {@code qmax} prints after a run: Q_max and the service time, how far to trust it, where the
 * time went, the file written and the next step ({@code stateDir} null when none was given). Stays
 * in {@code cli}, not {@code report}: the trust and breakdown lines come from {@code chain}.
 */
final class QmaxSummary {
  private QmaxSummary() {}

  static void print(
      PrintWriter out, QmaxArtifact a, Path target, String model, @Nullable Path stateDir) {
    out.printf(
        Locale.ROOT,
        "Q_max %d at p95 TTFAB <= %.0f ms on %s (%s%s); S_mean %.1f ms," + " S_p95 %.1f ms%n",
        a.qMax(),
        a.sloMs(),
        a.endpoint(),
        Boolean.TRUE.equals(a.qMaxBracketed()) ? "bracketed" : "NOT bracketed: a lower bound",
        Boolean.TRUE.equals(a.refined()) ? ", refined to +/-1" : "",
        a.sMeanS() == null ? Double.NaN : a.sMeanS() * 1000,
        a.sP95S() == null ? Double.NaN : a.sP95S() * 1000);
    QmaxTrust.lines(a).forEach(out::println);
    QmaxBreakdown.lines(a).forEach(out::println);
    out.println("wrote " + target);
    out.println(
        "next: tts-bench ttotal --model "
            + model
            + " "
            + Flags.QMAX
            + " "
            + target
            + (stateDir == null ? "" : " " + Flags.STATE_DIR + " " + stateDir));
  }
}
