package dev.speechscale.chain;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.DriftArtifact;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.Stamp;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;

/**
 * Committed artifacts (found from the module directory Surefire runs in): a real quickstart run
 * (2026-11-30 09:52 UTC, the one first recorded in {@code examples/quickstart}), kept in {@code
 * testdata/quickstart-2026-11-30-0952} so that re-recording the example never changes what these
 * tests expect (the report's tests read it too); the Kokoro-82M ladder reconstructed from the
 * published figures in {@code examples/kokoro-82m}; and small hand-made ladders.
 */
final class Recorded {
  private Recorded() {}

  static final Path QUICKSTART = Path.of("..", "testdata", "quickstart-2026-11-30-0952");
  static final Path QUICKSTART_QMAX =
      QUICKSTART.resolve("qmax-quickstart-http-stream-local500mcpu-797ff86f.json");
  static final Path QUICKSTART_TTOTAL =
      QUICKSTART.resolve("ttotal-quickstart-force-desired-local500mcpu-797ff86f.json");
  static final Path QUICKSTART_PLAN = QUICKSTART.resolve("plan-quickstart.json");
  static final Path QUICKSTART_VALIDATE = QUICKSTART.resolve("validate-quickstart.json");
  static final Path QUICKSTART_DRIFT = QUICKSTART.resolve("drift-quickstart.json");

  /** The config the quickstart measured with: no scaling values, no queue bound. */
  static final Path QUICKSTART_CONFIG = QUICKSTART.resolve("endpoints.yaml");

  /** The config the quickstart deployed behind its plan. */
  static final Path QUICKSTART_PLANNED_CONFIG = QUICKSTART.resolve("endpoints-planned.yaml");

  static final Path KOKORO_QMAX =
      Path.of(
          "..", "examples", "kokoro-82m", "qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json");

  static QmaxArtifact quickstartQmax() {
    return ArtifactCodec.readQmax(QUICKSTART_QMAX);
  }

  static TtotalArtifact quickstartTtotal() {
    return ArtifactCodec.readTtotal(QUICKSTART_TTOTAL);
  }

  static PlanArtifact quickstartPlan() {
    return ArtifactCodec.readPlan(QUICKSTART_PLAN);
  }

  static ValidateArtifact quickstartValidate() {
    return ArtifactCodec.readValidate(QUICKSTART_VALIDATE);
  }

  static DriftArtifact quickstartDrift() {
    return ArtifactCodec.readDrift(QUICKSTART_DRIFT);
  }

  static EndpointConfig quickstartConfig() {
    return EndpointConfigFile.read(QUICKSTART_CONFIG).model("quickstart");
  }

  static EndpointConfig quickstartPlannedConfig() {
    return EndpointConfigFile.read(QUICKSTART_PLANNED_CONFIG).model("quickstart");
  }

  static QmaxArtifact kokoroQmax() {
    return ArtifactCodec.readQmax(KOKORO_QMAX);
  }

  /** One rung of run {@code run}: usable unless {@code unusableReason} is given. */
  static QmaxStep step(int run, int concurrency, Double p95Ms, String unusableReason) {
    return QmaxStep.of(
            new QmaxStep.Position(run, 0, concurrency),
            QmaxStep.Counts.of(100, 100, 0),
            new QmaxStep.Throughput(10.0, concurrency),
            new QmaxStep.ClientLatency(p95Ms, p95Ms, p95Ms, p95Ms, p95Ms),
            unusableReason == null
                ? QmaxStep.Verdict.USABLE
                : QmaxStep.Verdict.unusable(unusableReason))
        .withServerConcurrency(new QmaxStep.ServerConcurrency(concurrency, concurrency));
  }

  /** A usable rung of run 0. */
  static QmaxStep step(int concurrency, double p95Ms) {
    return step(0, concurrency, p95Ms, null);
  }

  /** A ladder stating the given Q_max, as a hand-written artifact would (nothing derived). */
  static QmaxArtifact ladder(Integer qMax, QmaxStep... steps) {
    return QmaxArtifact.stated(
        new Stamp("test", Instant.EPOCH, TEST_PROVENANCE),
        new QmaxArtifact.Target("m", "speech-m", "http-stream", 1000, null),
        new QmaxArtifact.Conditions("local", 1, 8.0, 5.0, true),
        QmaxArtifact.Summary.ofQMax(qMax, true, false),
        Arrays.asList(steps));
  }

  /** The provenance of a hand-built test artifact. */
  static final Provenance TEST_PROVENANCE =
      new Provenance("test", "test", "test", "test ladder", Map.of());
}
