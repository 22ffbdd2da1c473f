package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.platform.SuspendedState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The drift artifact with findings, byte for byte: {@link Drift#run} against the recorded
 * quickstart deployed behind its plan, with the instance type, the container environment and the
 * suspended flags changed under it, at {@link DriftTest#CLOCK}, written by {@link
 * ArtifactCodec#toJson}. The recorded quickstart's own drift artifact is clean (no items), so this
 * is the golden file that pins the shape of an item; cli's {@code GoldenFilesTest} holds the other
 * kinds.
 *
 * <p>Normalisation, the only one: the host, JVM and OS that {@link Provenance#capture} stamps
 * become {@code <host>}, {@code <jvm>} and {@code <os>}. Rewrite the file on purpose with
 *
 * <pre>
 * mvn -o -B -pl chain -am verify -Dtest='DriftGoldenTest' \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dgolden.update=true
 * </pre>
 *
 * <p>and read {@code git diff} before committing; a change may alter it only by additive fields its
 * commit names.
 */
class DriftGoldenTest {
  static final Path GOLDEN = Path.of("src", "test", "resources", "golden", "drift-drifted.json");

  static String written() {
    FakePlatform p = DriftTest.planned();
    p.instanceType = "local.1cpu";
    p.containerEnv = Map.of("FLITE_VOICE", "kal");
    p.suspended = SuspendedState.ALL;
    Map<String, Object> parameters = new LinkedHashMap<>();
    parameters.put("model", "quickstart");
    parameters.put("plan", DriftTest.PLAN_SOURCE);
    String json =
        ArtifactCodec.toJson(
            Drift.run(
                new Drift.Inputs(
                    p, Recorded.quickstartPlannedConfig(), DriftTest.PLAN, DriftTest.PLAN_SOURCE),
                "tts-bench drift --model quickstart",
                parameters,
                DriftTest.CLOCK));
    Provenance machine = Provenance.capture("", Map.of());
    return json.replace(quoted(machine.host()), quoted("<host>"))
        .replace(quoted(machine.jvm()), quoted("<jvm>"))
        .replace(quoted(machine.os()), quoted("<os>"));
  }

  private static String quoted(String value) {
    return "\"" + value + "\"";
  }

  @Test
  void run_driftedDeployment_isTheGoldenArtifactByteForByte() throws IOException {
    String json = written();
    if (Boolean.getBoolean("golden.update")) {
      Files.writeString(GOLDEN, json, StandardCharsets.UTF_8);
      return;
    }

    assertThat(json.getBytes(StandardCharsets.UTF_8))
        .as(
            "the drift artifact differs from %s; if the change is intended (an additive field your"
                + " commit names), rewrite it with -Dgolden.update=true (see this class's Javadoc)"
                + " and read the git diff",
            GOLDEN.toAbsolutePath())
        .isEqualTo(Files.readAllBytes(GOLDEN));
    assertThat(json).contains("\"clean\" : false", "\"instance_type\"", "\"suspended_flags\"");
  }
}
