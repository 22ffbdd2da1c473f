package dev.speechscale.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Decodes audio with the system {@code sox} (installed by bin/test's package step), so tests prove
 * that what the server sends is a file other tools read.
 */
final class Sox {
  private Sox() {}

  record Info(int sampleRateHz, double seconds, double rmsAmplitude) {}

  /** Decodes a WAV (streaming or sized) and returns its rate, length and RMS amplitude. */
  static Info decode(byte[] wav, Path dir) throws IOException, InterruptedException {
    Path file = Files.createTempFile(dir, "sox", ".wav");
    Files.write(file, wav);
    String rate = run(List.of("sox", "--i", "-r", file.toString())).strip();
    // `stat` decodes every sample; a streaming header makes sox warn about the size, not fail
    String stat = run(List.of("sox", file.toString(), "-n", "stat"));
    return new Info(Integer.parseInt(rate), value(stat, "Length (seconds):"), value(stat, "RMS     amplitude:"));
  }

  private static double value(String stat, String label) {
    return stat.lines()
        .filter(l -> l.startsWith(label))
        .map(l -> Double.parseDouble(l.substring(label.length()).strip()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("sox stat printed no '" + label + "':\n" + stat));
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("sox did not finish: " + command);
    }
    if (p.exitValue() != 0) {
      throw new AssertionError("sox failed (" + p.exitValue() + "): " + command + "\n" + out);
    }
    return out;
  }
}
