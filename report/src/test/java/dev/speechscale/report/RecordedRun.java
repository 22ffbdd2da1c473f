package dev.speechscale.report;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.DriftArtifact;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;

/**
 * The artifacts the report's tests render (found from the module directory Surefire runs in): the
 * quickstart run of 2026-11-30 09:52 UTC in {@code testdata/quickstart-2026-11-30-0952} (the
 * chain's tests read the same run), and a two-run ladder with one unusable rung.
 */
record RecordedRun(
    QmaxArtifact qmax,
    TtotalArtifact ttotal,
    PlanArtifact plan,
    ValidateArtifact validate,
    DriftArtifact drift) {
  static final Path DIR = Path.of("..", "testdata", "quickstart-2026-11-30-0952");
  static final Path QMAX = DIR.resolve("qmax-quickstart-http-stream-local500mcpu-797ff86f.json");
  static final Path TTOTAL =
      DIR.resolve("ttotal-quickstart-force-desired-local500mcpu-797ff86f.json");
  static final Path PLAN = DIR.resolve("plan-quickstart.json");

  /**
   * Two ladder runs of rungs 1 and 2 (p95 100 and 200 ms, then 110 and 210 ms); run 2's N=2 is
   * unusable for the reason {@code REASON}.
   */
  static final Path TWO_RUNS = Path.of("src", "test", "resources", "qmax-two-runs.json");

  /** The quickstart run, read through the real readers. */
  static RecordedRun quickstart() {
    return new RecordedRun(
        ArtifactCodec.readQmax(QMAX),
        ArtifactCodec.readTtotal(TTOTAL),
        ArtifactCodec.readPlan(PLAN),
        ArtifactCodec.readValidate(DIR.resolve("validate-quickstart.json")),
        ArtifactCodec.readDrift(DIR.resolve("drift-quickstart.json")));
  }

  /**
   * A recorded artifact with literal text replaced in its JSON before it is read back through the
   * real reader (schema checks included): how a test puts hostile strings into any field.
   *
   * @param replacements literal text to the plain string that replaces it (JSON-escaped here)
   */
  static <T> T edited(
      Path original, Path dir, Map<String, String> replacements, Function<Path, T> reader) {
    try {
      String json = Files.readString(original, StandardCharsets.UTF_8);
      for (Map.Entry<String, String> r : replacements.entrySet()) {
        if (!json.contains(r.getKey())) {
          throw new IllegalArgumentException(original + " does not contain " + r.getKey());
        }
        json = json.replace(r.getKey(), jsonEscaped(r.getValue()));
      }
      Path copy = dir.resolve(original.getFileName());
      Files.writeString(copy, json, StandardCharsets.UTF_8);
      return reader.apply(copy);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String jsonEscaped(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
