package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server writes nothing under {@code $HOME}: the image runs with a read-only root file system
 * on SageMaker, and anything written there would be telemetry (ONNX Runtime's {@code
 * ~/.cache/Microsoft/DeveloperTools/.onnxruntime}) or audio-output state (PulseAudio's {@code
 * ~/.config/pulse}, created when espeak-ng opens an audio device). Kokoro loads both ONNX Runtime
 * and espeak-ng, so one Kokoro start-up, warm-up and stop covers every engine's native libraries.
 */
class HomeUntouchedTest {
  @Test
  void serve_kokoroStartWarmUpAndStop_writesNothingUnderHome(
      @TempDir Path home, @TempDir Path model) throws Exception {
    KokoroStandIn.Files_ files = KokoroStandIn.write(model);
    ProcessBuilder builder = MainProcess.serve("--port", "0");
    var env = builder.environment();
    env.keySet().removeIf(k -> k.startsWith("XDG_") || k.startsWith("PULSE_"));
    env.put("HOME", home.toString());
    env.put("ENGINE", "kokoro");
    env.put("KOKORO_MODEL", files.model().toString());
    env.put("KOKORO_CONFIG", files.config().toString());
    env.put("KOKORO_VOICES", files.voices().resolve("af_heart.bin").toString());
    Process process = builder.start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("=== STAGE ready ")) {
        lines.add(line);
      }
      assertThat(line).as("the ready marker; the server printed:\n%s", lines).isNotNull();
      process.toHandle().destroy();
      out.lines().forEach(lines::add);
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("stopped on SIGTERM").isTrue();
    } finally {
      process.destroyForcibly();
    }
    try (Stream<Path> written = Files.walk(home)) {
      assertThat(written.filter(p -> !p.equals(home)).map(p -> home.relativize(p).toString()))
          .as("files the server made under HOME (%s); it printed:\n%s", home, lines)
          .isEmpty();
    }
  }
}
