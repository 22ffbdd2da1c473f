package dev.speechscale.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.SimulateArtifact;
import dev.speechscale.artifacts.SimulateArtifacts;
import dev.speechscale.capacity.ServiceTimeDistribution;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.Policy;
import dev.speechscale.simulator.PolicyResult;
import dev.speechscale.simulator.Progress;
import dev.speechscale.simulator.Traffic;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SimulateReportTest {

  private static SimulateArtifact artifact(Double price) {
    InstanceModel m =
        new InstanceModel(
            1,
            ServiceTimeDistribution.lognormal(0.1, 0.12),
            1.0,
            0.5,
            10,
            Duration.ofSeconds(56),
            Duration.ofSeconds(30),
            "test <model>");
    Traffic t = Traffic.step(30, 2, Duration.ofMinutes(30));
    FleetSimulator.Options o = new FleetSimulator.Options(1000, Duration.ZERO, 3);
    List<PolicyResult> results =
        List.of(
            FleetSimulator.run(m, t, new Policy.Fixed(1), o, Progress.none()),
            FleetSimulator.run(m, t, new Policy.Fixed(4), o, Progress.none()));
    return SimulateArtifacts.build(
        new SimulateArtifacts.Sources(
            "demo",
            "speech-demo",
            1000,
            3,
            0,
            price,
            t,
            "pattern",
            m,
            "ttotal-demo.json: desired_set -> in_service = 30 s",
            List.of(
                new PlanArtifact.SourceFile(
                    "/home/someone/runs/qmax-demo.json", "qmax", Instant.EPOCH, "slug-1", "v")),
            results,
            new Provenance("secret-host", "j", "o", "tts-bench simulate --qmax /home/x", Map.of()),
            Instant.EPOCH));
  }

  @Test
  void html_twoPolicies_hasTheTableAndFourChartsEachPlusTheOverview() {
    String html = SimulateReport.html(artifact(null));

    assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
    assertThat(html.split("<svg ", -1)).hasSize(1 + 2 + 2 * 4);
    assertThat(html).contains("<b>fixed:1</b>", "<b>fixed:4</b>", "Policies side by side");
    assertThat(html).doesNotContain("cost @");
  }

  @Test
  void html_neverShowsMachinePathsOrTheHost() {
    String html = SimulateReport.html(artifact(null));

    assertThat(html).contains("<code>qmax-demo.json</code>");
    assertThat(html).doesNotContain("/home/", "secret-host");
  }

  @Test
  void html_escapesText() {
    assertThat(SimulateReport.html(artifact(null))).contains("test &lt;model&gt;");
  }

  @Test
  void html_withPrice_addsTheCostColumn() {
    assertThat(SimulateReport.html(artifact(2.0))).contains("<th>cost @ 2/h</th>");
  }

  @Test
  void niceCeiling_roundsUpToOneTwoOrFive() {
    assertThat(Svg.niceCeiling(0)).isEqualTo(1);
    assertThat(Svg.niceCeiling(3.2)).isEqualTo(5);
    assertThat(Svg.niceCeiling(130)).isEqualTo(200);
    assertThat(Svg.niceCeiling(5000)).isEqualTo(5000);
  }
}
