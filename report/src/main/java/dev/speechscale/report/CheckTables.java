package dev.speechscale.report;

import static dev.speechscale.report.Html.esc;
import static dev.speechscale.report.Html.escText;
import static dev.speechscale.report.Html.verdictRow;

import dev.speechscale.artifacts.DriftArtifact;
import dev.speechscale.artifacts.ValidateArtifact;

/** The report's validate and drift results: one table row per check, its verdict coloured. */
final class CheckTables {
  private CheckTables() {}

  static void validate(StringBuilder h, ValidateArtifact v) {
    h.append("<h2>Validate")
        .append(v.live() ? " (static and live)" : " (static)")
        .append("</h2>\n<table><tr><th>check</th><th>result</th><th>expected</th>")
        .append("<th>actual</th><th>detail</th></tr>");
    for (ValidateArtifact.Check c : v.checks()) {
      verdictRow(h, c.name(), c.result().label())
          .append(esc(c.expected()))
          .append("</td><td>")
          .append(esc(c.actual()))
          .append("</td><td>")
          .append(escText(c.detail()))
          .append("</td></tr>");
    }
    h.append("</table>\n");
  }

  static void drift(StringBuilder h, DriftArtifact d) {
    h.append("<h2>Drift (preflight)</h2>\n");
    if (d.items().isEmpty()) {
      h.append("<p class=\"ok\">clean: deployed as configured</p>\n");
      return;
    }
    h.append("<table><tr><th>check</th><th>severity</th><th>detail</th></tr>");
    for (DriftArtifact.Item i : d.items()) {
      verdictRow(h, i.check(), i.severity().label())
          .append(escText(i.detail()))
          .append("</td></tr>");
    }
    h.append("</table>\n");
  }
}
