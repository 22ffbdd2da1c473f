package dev.speechscale.report;

import static dev.speechscale.report.Html.esc;
import static dev.speechscale.report.Html.f;
import static dev.speechscale.report.Html.num;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import java.util.Comparator;
import java.util.List;

/**
 * The report's concurrency ladder: the trust lines, the chart ({@link LadderChart}) and a table of
 * every rung sorted by run, then N (measurement order is in the artifact and the event log).
 */
final class LadderSection {
  private LadderSection() {}

  static void html(StringBuilder h, QmaxArtifact q, List<String> trust, PlanArtifact plan) {
    h.append("<h2>Concurrency ladder</h2>\n");
    if (!trust.isEmpty()) {
      h.append("<p class=\"trust\">");
      trust.forEach(line -> h.append(esc(line.strip())).append("<br>"));
      h.append("</p>\n");
    }
    LadderChart.svg(h, q, plan);
    table(h, q);
  }

  private static void table(StringBuilder h, QmaxArtifact q) {
    h.append("<table><tr><th>run</th><th>N</th><th>p50 / p95 / p99 TTFAB ms</th>")
        .append("<th>req/s</th><th>client mean</th><th>server max / avg</th><th>verdict</th></tr>");
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
          .append("</td><td>")
          .append(verdict(s))
          .append("</td></tr>");
    }
    h.append("</table>\n");
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
