package dev.speechscale.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.report.QuickstartReport;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report as a person sees it: rendered by headless Chromium (installed by bin/test) from
 * the example artifacts, then checked in the screenshot for the ladder chart's SLO line (red) and
 * Q_max marker (green) and for a page that is not blank.
 */
class ReportScreenshotTest {
  static final Path EXAMPLES = Path.of("..", "examples", "kokoro-82m");
  static final int RED = 0xc0262d;
  static final int GREEN = 0x1b7f3b;

  @TempDir Path dir;

  @Test
  void report_renderedInHeadlessChromium_showsTheChartAndTheFindings() throws Exception {
    Path qmax = EXAMPLES.resolve("qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json");
    Path ttotal = EXAMPLES.resolve("ttotal-kokoro-82m-force-desired-g5xlarge-8b1b96bc.json");
    Path plan = dir.resolve("plan.json");
    assertThat(
            Cli.ttsBench(
                    "plan",
                    "--qmax",
                    qmax.toString(),
                    "--ttotal",
                    ttotal.toString(),
                    "--peak-rps",
                    "5000",
                    "--trough-rps",
                    "10",
                    "--output",
                    plan.toString())
                .exitCode())
        .isZero();
    Path html = dir.resolve("report.html");
    String page =
        QuickstartReport.html(
            new QuickstartReport.Inputs(
                "Kokoro-82M (published figures)",
                ArtifactCodec.readQmax(qmax),
                ArtifactCodec.readTtotal(ttotal),
                ArtifactCodec.readPlan(plan),
                null,
                null,
                Map.of("plan", "bin/tts-bench plan ...")));
    Files.writeString(html, page);
    assertThat(page).doesNotContain("<script").doesNotContain("http://").doesNotContain("https://");

    Path png = dir.resolve("report.png");
    Process chromium =
        new ProcessBuilder(
                List.of(
                    chromium(),
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--hide-scrollbars",
                    "--user-data-dir=" + dir.resolve("profile"),
                    "--window-size=1200,1600",
                    "--screenshot=" + png,
                    html.toUri().toString()))
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("chromium.log").toFile())
            .start();
    try {
      assertThat(chromium.waitFor(90, TimeUnit.SECONDS)).as("chromium finished").isTrue();
    } finally {
      chromium.destroyForcibly();
    }
    BufferedImage shot = ImageIO.read(png.toFile());

    assertThat(shot).as(Files.readString(dir.resolve("chromium.log"))).isNotNull();
    assertThat(shot.getWidth()).isEqualTo(1200);
    long red = 0;
    long green = 0;
    long ink = 0;
    for (int y = 0; y < shot.getHeight(); y++) {
      for (int x = 0; x < shot.getWidth(); x++) {
        int rgb = shot.getRGB(x, y) & 0xffffff;
        red += near(rgb, RED) ? 1 : 0;
        green += near(rgb, GREEN) ? 1 : 0;
        ink += rgb != 0xffffff ? 1 : 0;
      }
    }
    assertThat(red).as("the SLO line and breaching rungs").isGreaterThan(500);
    assertThat(green).as("the Q_max marker and ok verdicts").isGreaterThan(300);
    assertThat(ink)
        .as("a page that is not blank")
        .isGreaterThan(shot.getWidth() * (long) shot.getHeight() / 20);
  }

  private static boolean near(int rgb, int target) {
    return Math.abs(((rgb >> 16) & 0xff) - ((target >> 16) & 0xff)) < 24
        && Math.abs(((rgb >> 8) & 0xff) - ((target >> 8) & 0xff)) < 24
        && Math.abs((rgb & 0xff) - (target & 0xff)) < 24;
  }

  private static String chromium() {
    for (String c : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser")) {
      if (Files.isExecutable(Path.of(c))) {
        return c;
      }
    }
    throw new AssertionError(
        "Chromium is not installed; bin/test installs the Debian package"
            + " chromium (run it as root, or apt-get install -y chromium)");
  }
}
