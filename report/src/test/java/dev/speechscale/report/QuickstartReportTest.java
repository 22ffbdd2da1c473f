package dev.speechscale.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.DriftArtifact;
import dev.speechscale.artifacts.Header;
import dev.speechscale.artifacts.HostSpeedLog;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quickstart report, rendered from the recorded quickstart run and from hostile strings. */
class QuickstartReportTest {
  static final RecordedRun RUN = RecordedRun.quickstart();

  static final String TITLE = "SpeechScale quickstart: speech-quickstart";

  /** Text that would run, break out of an attribute or start an entity if it were not escaped. */
  static final String HOSTILE = "<script>alert(\"pwn\")</script> & 'co'";

  static final String ESCAPED = "&lt;script&gt;alert(&quot;pwn&quot;)&lt;/script&gt; &amp; 'co'";

  static final Map<String, String> COMMANDS = commands();

  @TempDir Path dir;

  private static Map<String, String> commands() {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("drift", "bin/tts-bench drift --model quickstart --config endpoints.yaml");
    c.put("plan", "bin/tts-bench plan --qmax q.json --ttotal t.json --peak-rps 18");
    return c;
  }

  static String quickstartPage() {
    return QuickstartReport.html(
        new QuickstartReport.Inputs(
            TITLE, RUN.qmax(), RUN.ttotal(), RUN.plan(), RUN.validate(), RUN.drift(), COMMANDS));
  }

  static List<String> all(String page, String regex) {
    Matcher m = Pattern.compile(regex, Pattern.DOTALL).matcher(page);
    List<String> out = new ArrayList<>();
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /** Ladder table rows as "run/N". */
  static List<String> ladderRows(String page) {
    Matcher m = Pattern.compile("<tr><td>(\\d+)</td><td>(\\d+)</td>").matcher(page);
    List<String> out = new ArrayList<>();
    while (m.find()) {
      out.add(m.group(1) + "/" + m.group(2));
    }
    return out;
  }

  /** A drift artifact of the quickstart endpoint with the given findings. */
  static DriftArtifact drift(DriftArtifact.Item... items) {
    return new DriftArtifact(
        1,
        "drift",
        "test",
        Instant.EPOCH,
        null,
        "quickstart",
        "speech-quickstart",
        "local",
        false,
        List.of(items));
  }

  // ---- the recorded quickstart run ----

  @Test
  void html_recordedQuickstart_rendersEverySectionInOrder() {
    assertThat(all(quickstartPage(), "<h[123]>([^<]*)</h[123]>"))
        .containsExactly(
            TITLE,
            "Concurrency ladder",
            "TTFAB distribution per rung",
            "Scale-out stages (T_total)",
            "Plan",
            "Surge survival against the scale-out threshold",
            "Findings",
            "Deployable endpoint configuration",
            "Validate (static and live)",
            "Validate timeline",
            "Drift (preflight)",
            "Rerun any step");
  }

  @Test
  void html_ladderWithServerBreakdown_showsQueueAgainstEnginePerRungAndExplainsIt() {
    // the first of the five quickstarts of 2026-12-02 (measurements/qmax-reproducibility/run1 until
    // commit 8b72f16)
    QmaxArtifact q =
        ArtifactCodec.readQmax(Path.of("src", "test", "resources", "qmax-breakdown.json"));

    String page =
        QuickstartReport.html(
            new QuickstartReport.Inputs(
                TITLE, q, RUN.ttotal(), RUN.plan(), RUN.validate(), RUN.drift(), COMMANDS));

    assertThat(page)
        .contains("<th>server p95: queue / engine ms</th>")
        .contains("<td class=\"n\">538.9 / 34.7</td>")
        .contains("<b>server p95: queue / engine</b>: the server's own p95 wait");
  }

  @Test
  void html_ladderWithoutServerBreakdown_keepsItsTableAndExplainsEveryColumn() {
    assertThat(quickstartPage())
        .doesNotContain("server p95: queue / engine")
        .contains("<p class=\"legend\"><b>run</b>: the ladder pass; <b>N</b>: closed-loop");
  }

  @Test
  void html_recordedQuickstart_isOneSelfContainedPage() {
    String page = quickstartPage();

    assertThat(page)
        .startsWith("<!DOCTYPE html>")
        .endsWith("</body></html>\n")
        .contains("<title>" + TITLE + "</title>")
        .doesNotContain("<script", "src=", "href=", "://");
  }

  @Test
  void html_recordedQuickstart_summarisesEachStep() {
    assertThat(quickstartPage())
        .contains(
            "endpoint speech-quickstart on local, local500mcpu-797ff86f, transport http-stream,"
                + " measured 2026-11-30 09:53:55 UTC")
        .contains("<div class=\"big\">10 (bracketed, &plusmn;1)</div>")
        .contains("<div class=\"big\">8.5 s + 60 s lag = 68.5 s</div>")
        .contains("<div class=\"meta\">plan</div><div class=\"big\"><span class=\"warn\">warn (2)")
        .contains(
            "<div class=\"meta\">validate</div><div class=\"big\"><span class=\"warn\">warn (1)");
  }

  @Test
  void html_recordedQuickstart_chartsTheSloLineQmaxAndCscaleMax() {
    assertThat(quickstartPage())
        .contains(">SLO 1000 ms</text>")
        .contains(">Q_max 10</text>")
        .contains(">C_scale_max 7.5</text>");
  }

  @Test
  void html_recordedQuickstart_plotsEveryRungAndMarksTheBreachesRed() {
    String page = quickstartPage();

    assertThat(all(page, "<title>(N=[^<]*)</title>"))
        .containsExactly(
            "N=1 p95 57.8 ms",
            "N=2 p95 239.2 ms",
            "N=4 p95 417.0 ms",
            "N=8 p95 755.6 ms",
            "N=10 p95 926.8 ms",
            "N=11 p95 1089.2 ms",
            "N=12 p95 1154.0 ms",
            "N=16 p95 1794.0 ms",
            "N=32 p95 3057.6 ms");
    assertThat(all(page, "<circle [^>]*fill=\"(#c0262d)\"")).hasSize(4);
  }

  @Test
  void html_recordedQuickstart_tablesEveryRungSortedByN() {
    String page = quickstartPage();

    // measured 1, 2, 4, 8, 16, 32, then bisection 12, 10, 11 (issue 15: the table sorted by N)
    assertThat(ladderRows(page))
        .containsExactly("1/1", "1/2", "1/4", "1/8", "1/10", "1/11", "1/12", "1/16", "1/32");
    assertThat(all(page, "<span class=\"ok\">(meets SLO)</span>")).hasSize(5);
    assertThat(all(page, "<span class=\"fail\">(breaches SLO)</span>")).hasSize(4);
  }

  @Test
  void html_recordedQuickstart_waterfallsEveryStageThenThePolicyLag() {
    String page = quickstartPage();

    assertThat(all(page, "<text x=\"312\" y=\"\\d+\" font-size=\"12\" text-anchor=\"end\">([^<]*)"))
        .containsExactly(
            "desired_set → instance_logging",
            "instance_logging → container_started",
            "container_started → framework_init",
            "framework_init → weights_ready",
            "weights_ready → warmup_done",
            "warmup_done → ready",
            "ready → in_service",
            "in_service → traffic_recovered",
            "policy detection lag (bounded)");
    assertThat(page)
        .contains(">T = 8.5 s measured + 60.0 s bound = 68.5 s</text>")
        .contains("<li>container_started was observed 0 ms before instance_logging;");
  }

  @Test
  void html_recordedQuickstart_showsThePlansNumbersFindingsAndConfigBlock() {
    PlanArtifact plan = RUN.plan();
    String page = quickstartPage();

    assertThat(page)
        .contains("C_scale_max 7.50, C_scale_min 5.00; deployed target 7.503, scale-in 5.003")
        .contains("<td>1 .. 2 instances (N_safe 3)</td>")
        .contains("<td>30 s out, 300 s in</td>")
        .contains("<th>queue_max_depth</th><td>10</td>")
        .contains("<td>0.880 s</td>")
        .contains("shed probability 100.0%, recommended_c_scale_max \u2013")
        .contains("<td>surge_survival</td><td class=\"warn\">warn</td>")
        .contains("<td>curve_repeatability</td><td class=\"suppressed\">suppressed</td>")
        .contains("<pre>models:\n  quickstart:\n    instance_type: local.500mcpu");
    assertThat(all(page, "<tr><td>([a-z_]+)</td><td class=\"(?:ok|warn|suppressed|fail)\">"))
        .containsSubsequence(
            plan.findings().stream().map(PlanArtifact.FindingEntry::name).toList());
  }

  @Test
  void html_recordedQuickstart_tablesEveryValidateCheck() {
    ValidateArtifact v = RUN.validate();
    String page = quickstartPage();

    for (ValidateArtifact.Check c : v.checks()) {
      assertThat(page)
          .contains(
              "<tr><td>"
                  + c.name()
                  + "</td><td class=\""
                  + c.result().label()
                  + "\">"
                  + c.result().label()
                  + "</td><td>"
                  + Html.esc(c.expected())
                  + "</td><td>"
                  + Html.esc(c.actual())
                  + "</td>");
    }
  }

  @Test
  void html_recordedQuickstart_saysTheDriftWasClean() {
    assertThat(quickstartPage()).contains("<p class=\"ok\">clean: deployed as configured</p>");
  }

  @Test
  void html_commands_areListedInTheOrderGiven() {
    assertThat(all(quickstartPage(), "<code>([^<]*)</code>"))
        .containsExactlyElementsOf(COMMANDS.values());
  }

  @Test
  void html_driftWithFindings_tablesThemWithTheirSeverity() {
    DriftArtifact d =
        drift(
            new DriftArtifact.Item(
                "target_value",
                DriftArtifact.Severity.ERROR,
                "7.503",
                "0.713",
                "the deployed target differs"),
            new DriftArtifact.Item(
                "alarm_data",
                DriftArtifact.Severity.WARN,
                "OK or ALARM",
                "INSUFFICIENT_DATA",
                "no decision yet"));

    assertThat(
            QuickstartReport.html(
                new QuickstartReport.Inputs(TITLE, null, null, null, null, d, null)))
        .contains(
            "<tr><td>target_value</td><td class=\"fail\">error</td>"
                + "<td>the deployed target differs</td></tr>")
        .contains(
            "<tr><td>alarm_data</td><td class=\"warn\">warn</td><td>no decision yet</td></tr>");
  }

  @Test
  void html_onlyATitle_leavesEverySectionOut() {
    String page =
        QuickstartReport.html(
            new QuickstartReport.Inputs(TITLE, null, null, null, null, null, Map.of()));

    assertThat(page).doesNotContain("<h2>", "<svg", "<table><tr><th>");
    assertThat(page).contains("<h1>" + TITLE + "</h1>").contains("Generated by SpeechScale.");
  }

  // ---- run numbers ----

  @Test
  void html_oneRun_isRunOne() {
    assertThat(ladderRows(quickstartPage())).allMatch(r -> r.startsWith("1/"));
  }

  @Test
  void escText_absolutePaths_becomeFileNamesAndNothingElseChanges() {
    assertThat(
            Html.escText(
                "no plan artifact (looked for /work/main/examples/quickstart/plan-quickstart.json):"
                    + " run `tts-bench plan`; 10 s x 3, req/s, out/in, a / b, 1.25x <p>"))
        .isEqualTo(
            "no plan artifact (looked for plan-quickstart.json): run `tts-bench plan`; 10 s x 3,"
                + " req/s, out/in, a / b, 1.25x &lt;p&gt;");
  }

  @Test
  void html_twoRuns_areRunsOneAndTwo() {
    QmaxArtifact q = ArtifactCodec.readQmax(RecordedRun.TWO_RUNS);

    String page =
        QuickstartReport.html(new QuickstartReport.Inputs(TITLE, q, null, null, null, null, null));

    assertThat(ladderRows(page)).containsExactly("1/1", "1/2", "2/1", "2/2");
  }

  @Test
  void html_pricedPlan_showsTheCostAndWhatIsLeftOut() {
    PlanArtifact plan =
        RUN.plan()
            .withCost(
                dev.speechscale.capacity.FleetCost.of(
                    0.5,
                    1,
                    2,
                    new dev.speechscale.capacity.Load.RequestRate(1),
                    new dev.speechscale.capacity.Load.RequestRate(10),
                    null));

    String page =
        QuickstartReport.html(
            new QuickstartReport.Inputs(TITLE, null, null, plan, null, null, null));

    assertThat(page)
        .contains(
            "<th>cost at trough</th><td>1 instance x $0.5 = $0.50/hour; $138.89 per million"
                + " requests at 1 req/s</td>")
        .contains("<th>cost at peak</th><td>2 instances x $0.5 = $1.00/hour; $27.78 per million")
        .contains("<th>cost not shown</th><td>$ per audio hour: the qmax artifact records no");
  }

  @Test
  void html_unpricedPlan_showsNoCost() {
    assertThat(quickstartPage()).doesNotContain("cost at");
  }

  // ---- hostile strings ----

  @Test
  void html_hostileModelName_isEscapedInTitleSummaryAndConfigBlock() {
    Map<String, String> rename = Map.of("quickstart", HOSTILE);
    QmaxArtifact q = RecordedRun.edited(RecordedRun.QMAX, dir, rename, ArtifactCodec::readQmax);
    PlanArtifact plan = RecordedRun.edited(RecordedRun.PLAN, dir, rename, ArtifactCodec::readPlan);

    String page =
        QuickstartReport.html(
            new QuickstartReport.Inputs(
                "SpeechScale quickstart: " + q.endpoint(), q, null, plan, null, null, null));

    assertThat(page).doesNotContain("<script", HOSTILE);
    assertThat(page)
        .contains("<title>SpeechScale quickstart: speech-" + ESCAPED + "</title>")
        .contains("<h1>SpeechScale quickstart: speech-" + ESCAPED + "</h1>")
        .contains("endpoint speech-" + ESCAPED + " on local")
        .contains("<pre>models:\n  " + ESCAPED + ":\n");
  }

  @Test
  void html_hostileTtotalNote_isEscaped() {
    TtotalArtifact t =
        RecordedRun.edited(
            RecordedRun.TTOTAL,
            dir,
            Map.of("trigger was a forced desired count", HOSTILE),
            ArtifactCodec::readTtotal);

    String page =
        QuickstartReport.html(new QuickstartReport.Inputs(TITLE, null, t, null, null, null, null));

    assertThat(page).doesNotContain("<script").contains("<li>" + ESCAPED + " under a scaling");
  }

  @Test
  void html_ttotalWithTheNewInstance_showsItsWindowsAndTheColdStartTheModelTakes() {
    // run o: ttotal probed the new instance a minute past in service
    TtotalArtifact t =
        ArtifactCodec.readTtotal(
            Path.of(
                "..",
                "testdata",
                "quiet-2026-12-04o",
                "ttotal-quickstart-force-desired-local500mcpu-2a6e114d.json"));

    String page =
        QuickstartReport.html(new QuickstartReport.Inputs(TITLE, null, t, null, null, null, null));

    assertThat(page)
        .contains("<h3>The new instance against the old one</h3>")
        .contains("<tr><td>0–15</td><td>194 / 245</td><td>85.1 / 62.7</td><td>×1.36</td></tr>")
        .contains("<tr><td>45–60</td><td>260 / 222</td><td>61.0 / 70.0</td><td>×0.87</td></tr>")
        .contains(
            "simulate and replay: a new instance's first requests take 1.36x (0-193), 1.10x"
                + " (194-428) a warm one's time (this scale-out); simulate's first instances are"
                + " warm, replay's one (deployed for it) goes on along this from the requests its"
                + " warm-up served");
    // the recorded quickstart's ttotal, from before it was measured, shows none
    assertThat(quickstartPage()).doesNotContain("The new instance against the old one");

    // with the hosts probed across the scale-out: the new host 1.2x slower in every window
    long inService = 5_000_000L;
    HostSpeedLog hosts =
        new HostSpeedLog(
            "p",
            inService,
            List.of(Collections.nCopies(60, 20.0), Collections.nCopies(60, 24.0)),
            0,
            1);
    TtotalArtifact probed = t.withNewInstance(t.newInstance().withHosts(hosts, inService));
    String withHosts =
        QuickstartReport.html(
            new QuickstartReport.Inputs(TITLE, null, probed, null, null, null, null));
    assertThat(withHosts)
        .contains("<th>host probe time new / old</th><th>new / old, hosts divided out</th>")
        .contains(
            "<tr><td>0–15</td><td>194 / 245</td><td>85.1 / 62.7</td><td>×1.20</td>"
                + "<td>×1.13</td></tr>");
  }

  @Test
  void html_hostileFinding_isEscapedInDetailAndRecommendation() {
    PlanArtifact plan =
        RecordedRun.edited(
            RecordedRun.PLAN,
            dir,
            Map.of(
                "Q_max 10 came from a single ladder pass",
                HOSTILE,
                "re-run `tts-bench qmax --runs 2` or more to get a spread",
                HOSTILE),
            ArtifactCodec::readPlan);

    String page =
        QuickstartReport.html(
            new QuickstartReport.Inputs(TITLE, null, null, plan, null, null, null));

    assertThat(page)
        .doesNotContain("<script")
        .contains(
            "<td>"
                + ESCAPED
                + ", so whether it repeats was never measured<br><em>&rarr; "
                + ESCAPED
                + "</em></td>");
  }

  @Test
  void html_hostileValidateCheck_isEscapedInEveryColumn() {
    ValidateArtifact v =
        new ValidateArtifact(
            new Header(1, "validate", "test", Instant.EPOCH, null),
            "quickstart",
            "speech-quickstart",
            "local",
            "plan.json",
            false,
            new ValidateArtifact.Verdict(ValidateArtifact.Verdict.Kind.FAIL, 1),
            List.of(
                new ValidateArtifact.Check(
                    HOSTILE, ValidateArtifact.Result.FAIL, HOSTILE, HOSTILE, HOSTILE)),
            null,
            null);

    String page =
        QuickstartReport.html(new QuickstartReport.Inputs(TITLE, null, null, null, v, null, null));

    assertThat(page)
        .doesNotContain("<script")
        .contains(
            "<tr><td>"
                + ESCAPED
                + "</td><td class=\"fail\">fail</td><td>"
                + ESCAPED
                + "</td><td>"
                + ESCAPED
                + "</td><td>"
                + ESCAPED
                + "</td></tr>");
  }

  @Test
  void html_hostileDriftItem_isEscaped() {
    DriftArtifact d =
        drift(
            new DriftArtifact.Item(
                HOSTILE, DriftArtifact.Severity.ERROR, HOSTILE, HOSTILE, HOSTILE));

    String page =
        QuickstartReport.html(new QuickstartReport.Inputs(TITLE, null, null, null, null, d, null));

    assertThat(page)
        .doesNotContain("<script")
        .contains("<tr><td>" + ESCAPED + "</td><td class=\"fail\">error</td><td>" + ESCAPED);
  }

  @Test
  void html_hostileCommand_isEscaped() {
    String page =
        QuickstartReport.html(
            new QuickstartReport.Inputs(
                TITLE, null, null, null, null, null, Map.of(HOSTILE, HOSTILE)));

    assertThat(page)
        .doesNotContain("<script")
        .contains("<tr><td>" + ESCAPED + "</td><td><code>" + ESCAPED + "</code></td></tr>");
  }

  @Test
  void html_hostileUnusableReason_isEscapedInTheChartAndTheTable() {
    QmaxArtifact q =
        RecordedRun.edited(
            RecordedRun.TWO_RUNS, dir, Map.of("REASON", HOSTILE), ArtifactCodec::readQmax);

    String page =
        QuickstartReport.html(new QuickstartReport.Inputs(TITLE, q, null, null, null, null, null));

    assertThat(page)
        .doesNotContain("<script")
        .contains("<title>N=2 p95 210.0 ms (unusable: " + ESCAPED + ")</title>")
        .contains("<span class=\"warn\">unusable: " + ESCAPED + "</span>");
  }

  @Test
  void html_hostileTitle_isEscaped() {
    String page =
        QuickstartReport.html(
            new QuickstartReport.Inputs(HOSTILE, null, null, null, null, null, null));

    assertThat(page)
        .doesNotContain("<script")
        .contains("<title>" + ESCAPED + "</title>")
        .contains("<h1>" + ESCAPED + "</h1>");
  }

  @Test
  void esc_escapesAmpersandFirstAndLeavesOtherTextAlone() {
    assertThat(Html.esc("a&lt;b \"c\" <d> 'e' → f"))
        .isEqualTo("a&amp;lt;b &quot;c&quot; &lt;d&gt; 'e' → f");
  }

  @Test
  void esc_null_isEmpty() {
    assertThat(Html.esc(null)).isEmpty();
  }

  // ---- trust lines and the replay ----

  @Test
  void html_trustLines_standStrippedAndEscapedAboveTheChart() {
    String page =
        QuickstartReport.html(
            new QuickstartReport.Inputs(
                TITLE,
                RUN.qmax(),
                List.of("Q_max range 10–11", "  N=12 (run 1, rung 7): " + HOSTILE),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null));

    assertThat(page)
        .contains(
            "<h2>Concurrency ladder</h2>\n<p class=\"trust\">Q_max range 10–11<br>N=12 (run 1,"
                + " rung 7): "
                + ESCAPED
                + "<br></p>\n<div class=\"chart\"><svg ");
  }

  @Test
  void html_noTrustLines_hasNoTrustParagraph() {
    assertThat(quickstartPage()).doesNotContain("class=\"trust\"");
  }

  @Test
  void html_recordedReplay_showsItsVerdictInTheSummaryAndItsSection() {
    ReplayArtifact replay =
        ArtifactCodec.readReplay(
            Path.of("..", "testdata", "quickstart-2026-12-01-2232", "replay-quickstart.json"));

    String page =
        QuickstartReport.html(
            new QuickstartReport.Inputs(
                TITLE, null, null, null, null, null, null, null, replay, null, null));

    assertThat(page)
        .contains("replay vs simulator</div><div class=\"big\"><span class=\"ok\">within</span>")
        .contains("<p>verdict <span class=\"ok\">within</span></p>")
        .contains("aria-label=\"instances in service per second, predicted and measured\"")
        .contains("aria-label=\"p95 TTFAB per minute, predicted and measured\"");
  }

  @Test
  void html_replayNotRun_saysWhy() {
    String page =
        QuickstartReport.html(
            new QuickstartReport.Inputs(
                "t", null, null, null, null, null, null, null, null, "fleet not <settled>", null));

    assertThat(page).contains("not run: fleet not &lt;settled&gt;");
  }
}
