package dev.speechscale.report;

import static dev.speechscale.report.Html.esc;
import static dev.speechscale.report.Html.f;
import static dev.speechscale.report.Html.num;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.StepBreakdown;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The report's concurrency ladder: the trust lines, the chart ({@link LadderChart}) and a table of
 * every rung sorted by run, then N (measurement order is in the artifact and the event log), with
 * the server's queue and engine time per rung when the ladder recorded them, then each rung's TTFAB
 * distribution ({@link CdfChart}).
 */
final class LadderSection {
  private LadderSection() {}

  static void html(
      StringBuilder h, QmaxArtifact q, List<String> trust, @Nullable PlanArtifact plan) {
    h.append("<h2>Concurrency ladder</h2>\n");
    if (!trust.isEmpty()) {
      h.append("<p class=\"trust\">");
      trust.forEach(line -> h.append(esc(line.strip())).append("<br>"));
      h.append("</p>\n");
    }
    LadderChart.svg(h, q, plan);
    table(h, q);
    CdfChart.html(h, q);
  }

  private static void table(StringBuilder h, QmaxArtifact q) {
    // ladders from before the server breakdown keep their table as it was
    boolean breakdown = q.steps().stream().anyMatch(x -> x.breakdown() != null);
    h.append("<table><tr><th>run</th><th>N</th><th>p50 / p95 / p99 TTFAB ms</th>")
        .append("<th>req/s</th><th>client mean</th><th>server max / avg</th>")
        .append(breakdown ? "<th>server p95: queue / engine ms</th>" : "")
        .append("<th>verdict</th></tr>");
    List<QmaxStep> byN =
        q.steps().stream()
            .sorted(Comparator.comparingInt(QmaxStep::run).thenComparingInt(QmaxStep::concurrency))
            .toList();
    for (QmaxStep s : byN) {
      h.append("<tr><td>")
          .append(s.run() + 1) // run_index counts from 0; the CLI says "run 1/2"
          .append("</td><td>")
          .append(s.concurrency())
          .append("</td><td class=\"n\">")
          .append(f("%s / %s / %s", num(s.ttfabP50Ms()), num(s.ttfabP95Ms()), num(s.ttfabP99Ms())))
          .append("</td><td>")
          .append(num(s.achievedRps()))
          .append("</td><td>")
          .append(num(s.concurrencyMean()))
          .append("</td><td class=\"n\">")
          .append(num(s.serverConcurrencyPeak()))
          .append(" / ")
          .append(num(s.serverConcurrencyMean()))
          .append(breakdown ? serverBreakdown(s.breakdown()) : "")
          .append("</td><td>")
          .append(verdict(s))
          .append("</td></tr>");
    }
    h.append("</table>\n");
    legend(h, breakdown);
  }

  /** What each column means, under the table. */
  private static void legend(StringBuilder h, boolean breakdown) {
    h.append("<p class=\"legend\"><b>run</b>: the ladder pass; <b>N</b>: closed-loop")
        .append(" concurrency (N workers, one request each); <b>TTFAB</b>: from the intended send")
        .append(" to the first audio byte, at the client; <b>req/s</b>: successful completions per")
        .append(" second over the rung's measured window; <b>client mean</b>: requests the load")
        .append(" generator held in flight, on average; <b>server max / avg</b>: the scaling")
        .append(" metric (ConcurrentRequestsPerModel) over the window, Maximum and Average;")
        .append(
            breakdown
                ? " <b>server p95: queue / engine</b>: the server's own p95 wait for an execution"
                    + " slot and p95 engine time to its first chunk (response headers);"
                : "")
        .append(" <b>verdict</b>: whether the rung's p95 TTFAB met the SLO, or why the rung")
        .append(" could not be used.</p>\n");
  }

  /**
   * The server's own split of TTFAB: p95 time queued for an execution slot and p95 engine time to
   * its first chunk (from the response headers), as a cell.
   */
  private static String serverBreakdown(@Nullable StepBreakdown b) {
    return "</td><td class=\"n\">"
        + (b == null ? "\u2013" : num(b.queueWaitP95Ms()) + " / " + num(b.engineFirstChunkP95Ms()));
  }

  private static String verdict(QmaxStep s) {
    if (!s.isUsable()) {
      return "<span class=\"warn\">unusable: " + esc(s.unusableReason()) + "</span>";
    }
    return Boolean.TRUE.equals(s.meetsSlo())
        ? "<span class=\"ok\">meets SLO</span>"
        : "<span class=\"fail\">breaches SLO</span>";
  }
}
