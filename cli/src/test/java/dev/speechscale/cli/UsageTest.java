package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every command's {@code --help}, pinned: a change to a flag, a default or a description shows in
 * review as a change to {@code src/test/resources/dev/speechscale/cli/<tool>-<command>-usage.txt}.
 * To re-pin after an intended change, run with {@code -Dusage.repin=true} and review the diff.
 */
class UsageTest {

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "tts-bench, ''",
    "tts-bench, drift",
    "tts-bench, qmax",
    "tts-bench, ttotal",
    "tts-bench, plan",
    "tts-bench, simulate",
    "tts-bench, search",
    "tts-bench, validate",
    "tts-bench, replay",
    "tts-bench, export",
    "tts-bench, thaw",
    "tts-bench, quickstart",
    "speech-infra, ''",
    "speech-infra, synth",
    "speech-infra, deploy",
    "speech-infra, status",
    "speech-infra, destroy",
    "image-push, ''"
  })
  void help_isThePinnedUsage(String tool, String command) throws IOException {
    Object root =
        switch (tool) {
          case "tts-bench" -> new TtsBench();
          case "image-push" -> new ImagePushCommand(); // bin/image push
          default -> new SpeechInfra();
        };
    // picocli reports a description it cannot format (a bare '%') on System.err, not on the
    // command's err writer, and then prints the raw text: catch it here
    ByteArrayOutputStream traced = new ByteArrayOutputStream();
    PrintStream systemErr = System.err;
    System.setErr(new PrintStream(traced, true, StandardCharsets.UTF_8));
    CliRun run;
    try {
      run = command.isEmpty() ? CliRun.of(root, "--help") : CliRun.of(root, command, "--help");
    } finally {
      System.setErr(systemErr);
    }
    assertThat(traced.toString(StandardCharsets.UTF_8)).as("picocli's warnings").isEmpty();
    String name = tool + (command.isEmpty() ? "" : "-" + command) + "-usage.txt";

    assertThat(run.exitCode()).isZero();
    assertThat(run.err()).isEmpty();
    if (Boolean.getBoolean("usage.repin")) {
      Files.writeString(
          Path.of("src/test/resources/dev/speechscale/cli", name),
          run.out(),
          StandardCharsets.UTF_8);
    }
    try (InputStream in = getClass().getResourceAsStream(name)) {
      assertThat(in).as("pinned usage " + name + " (run with -Dusage.repin=true)").isNotNull();
      assertThat(run.out()).isEqualTo(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }
}
