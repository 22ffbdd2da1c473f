package dev.speechscale.report;

import static dev.speechscale.report.Html.esc;
import static dev.speechscale.report.Html.f;

import dev.speechscale.artifacts.DriftArtifact;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The quickstart report: one self-contained HTML file (inline CSS and SVG, no scripts, nothing
 * fetched) with the ladder chart (p95 TTFAB against concurrency, the SLO line, Q_max marked), the
 * T_total stage waterfall, the plan and its findings, the validate and drift results, the replay,
 * and the commands that rerun each step. Each section is its own class; this one lays out the page.
 */
public final class QuickstartReport {
  private QuickstartReport() {}

  private static final String STYLE =
      "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2rem auto;"
          + "max-width:1000px;color:#1d2330;line-height:1.45}h1{margin-bottom:.2rem}"
          + "h2{border-bottom:2px solid #e3e7ef;padding-bottom:.2rem;margin-top:2rem}"
          + "table{border-collapse:collapse;width:100%;font-size:.92rem}"
          + "td.n{white-space:nowrap}"
          + "td,th{border-bottom:1px solid #e3e7ef;padding:.3rem .5rem;text-align:left;"
          + "vertical-align:top}th{background:#f5f7fb}.ok{color:#1b7f3b;font-weight:600}"
          + ".warn{color:#b06a00;font-weight:600}.fail,.infeasible,.error{color:#c0262d;"
          + "font-weight:600}.suppressed{color:#6b7280;font-weight:600}"
          + "pre{background:#f5f7fb;padding:.8rem;overflow-x:auto;font-size:.85rem}"
          + ".meta{color:#5b6478}.big{font-size:1.3rem;font-weight:700}"
          + ".legend{color:#5b6478;font-size:.85rem}"
          + "svg text{font-family:system-ui,sans-serif}"
          // charts keep a legible size and scroll sideways on a narrow screen, as wide tables do
          + ".chart{overflow-x:auto}.chart svg{min-width:640px}"
          + "@media (max-width:700px){body{margin:1rem}table{display:block;overflow-x:auto}"
          + ".big{white-space:nowrap}}";

  /**
   * What the report shows; any artifact may be {@code null} and its section is then left out.
   *
   * @param title the heading
   * @param qmax the ladder
   * @param qmaxTrust how far the ladder's Q_max can be trusted, in lines for people (the chain's
   *     {@code QmaxTrust}), shown above the ladder chart; empty for none
   * @param ttotal the scale-out
   * @param plan the plan
   * @param validate the validation
   * @param drift the preflight
   * @param commands step name to the command that reruns it, in the order shown
   * @param replay the simulator against the live fleet
   * @param replayNotRun why the replay did not run, or {@code null}
   * @param search the policy search the quickstart ran on its own fleet, whose chosen policy the
   *     replay drives, or {@code null} (section left out)
   */
  public record Inputs(
      String title,
      @Nullable QmaxArtifact qmax,
      List<String> qmaxTrust,
      @Nullable TtotalArtifact ttotal,
      @Nullable PlanArtifact plan,
      @Nullable ValidateArtifact validate,
      @Nullable DriftArtifact drift,
      Map<String, String> commands,
      @Nullable ReplayArtifact replay,
      @Nullable String replayNotRun,
      @Nullable SearchView search) {
    public Inputs {
      qmaxTrust = qmaxTrust == null ? List.of() : List.copyOf(qmaxTrust);
    }

    /** Without a search. */
    public Inputs(
        String title,
        @Nullable QmaxArtifact qmax,
        List<String> qmaxTrust,
        @Nullable TtotalArtifact ttotal,
        @Nullable PlanArtifact plan,
        @Nullable ValidateArtifact validate,
        @Nullable DriftArtifact drift,
        Map<String, String> commands,
        @Nullable ReplayArtifact replay,
        @Nullable String replayNotRun) {
      this(
          title,
          qmax,
          qmaxTrust,
          ttotal,
          plan,
          validate,
          drift,
          commands,
          replay,
          replayNotRun,
          null);
    }

    /** Without trust lines and without a replay. */
    public Inputs(
        String title,
        @Nullable QmaxArtifact qmax,
        @Nullable TtotalArtifact ttotal,
        @Nullable PlanArtifact plan,
        @Nullable ValidateArtifact validate,
        @Nullable DriftArtifact drift,
        Map<String, String> commands) {
      this(title, qmax, List.of(), ttotal, plan, validate, drift, commands, null, null, null);
    }
  }

  public static String html(Inputs in) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>")
        .append(esc(in.title()))
        .append("</title><style>")
        .append(STYLE)
        .append("</style></head><body>\n");
    h.append("<h1>").append(esc(in.title())).append("</h1>\n");
    summary(h, in);
    sections(h, in);
    commands(h, in.commands());
    h.append("<p class=\"meta\">Generated by ")
        .append(
            esc(
                in.plan() != null
                    ? in.plan().toolVersion()
                    : in.qmax() != null ? in.qmax().toolVersion() : "SpeechScale"))
        .append(". Every number above is read from the artifacts beside this file.</p>")
        .append("</body></html>\n");
    return h.toString();
  }

  /** Each step's section, in chain order, for the artifacts given. */
  private static void sections(StringBuilder h, Inputs in) {
    if (in.qmax() != null) {
      LadderSection.html(h, in.qmax(), in.qmaxTrust(), in.plan());
    }
    if (in.ttotal() != null) {
      StagesSection.html(h, in.ttotal());
    }
    if (in.plan() != null) {
      PlanSection.html(h, in.plan());
    }
    if (in.validate() != null) {
      CheckTables.validate(h, in.validate());
      TimelineChart.html(h, in.validate(), in.plan());
    }
    if (in.search() != null) {
      SearchSection.html(h, in.search(), in.replay());
    }
    if (in.replay() != null) {
      ReplaySection.html(h, in.replay());
    } else if (in.replayNotRun() != null) {
      ReplaySection.skipped(h, in.replayNotRun());
    }
    if (in.drift() != null) {
      CheckTables.drift(h, in.drift());
    }
  }

  private static void commands(StringBuilder h, Map<String, String> commands) {
    if (commands == null || commands.isEmpty()) {
      return;
    }
    h.append("<h2>Rerun any step</h2><table><tr><th>step</th><th>command</th></tr>");
    commands.forEach((step, cmd) ->
        h.append("<tr><td>")
            .append(esc(step))
            .append("</td><td><code>")
            .append(esc(cmd))
            .append("</code></td></tr>"));
    h.append("</table>\n");
  }

  /** The line naming the endpoint, then one big figure per step. */
  private static void summary(StringBuilder h, Inputs in) {
    QmaxArtifact q = in.qmax();
    h.append("<p class=\"meta\">");
    if (q != null) {
      h.append("endpoint ")
          .append(esc(q.endpoint()))
          .append(" on ")
          .append(esc(String.valueOf(q.platform())))
          .append(", ")
          .append(esc(q.deployedConfig() == null ? "no fingerprint" : q.deployedConfig().slug()))
          .append(", transport ")
          .append(esc(q.transport()))
          .append(", measured ")
          .append(esc(Html.utc(q.createdAt())));
    }
    h.append("</p><table><tr>");
    if (q != null) {
      cell(h, "Q_max", q.qMax() + bracket(q), true);
    }
    TtotalArtifact t = in.ttotal();
    if (t != null) {
      cell(
          h,
          "T_total",
          f(
              "%.1f s + %.0f s lag = %.1f s",
              t.tTotalS(),
              t.policyLagBoundS(),
              java.util.Objects.requireNonNullElse(
                  t.tTotalWithPolicyBoundS(), t.tTotalS() + t.policyLagBoundS())),
          false);
    }
    if (in.plan() != null) {
      cell(h, "plan", Html.verdict(in.plan().verdict().label()), true);
    }
    if (in.validate() != null) {
      cell(h, "validate", Html.verdict(in.validate().verdict().label()), true);
    }
    if (in.search() != null) {
      cell(h, "search chose", in.search().recommended(), false);
    }
    if (in.replay() != null) {
      cell(h, "replay vs simulator", ReplaySection.verdict(in.replay()), true);
    }
    h.append("</tr></table>\n");
  }

  private static String bracket(QmaxArtifact q) {
    if (!Boolean.TRUE.equals(q.qMaxBracketed())) {
      return " (lower bound)";
    }
    return Boolean.TRUE.equals(q.refined()) ? " (bracketed, &plusmn;1)" : " (bracketed)";
  }

  private static void cell(StringBuilder h, String name, String value, boolean raw) {
    h.append("<td><div class=\"meta\">")
        .append(esc(name))
        .append("</div><div class=\"big\">")
        .append(raw ? value : esc(value))
        .append("</div></td>");
  }
}
