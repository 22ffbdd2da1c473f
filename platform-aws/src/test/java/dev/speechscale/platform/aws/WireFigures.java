package dev.speechscale.platform.aws;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes what a wire test class's fake served to {@code target/wire-figures/<class>.txt}: requests
 * per operation, how many were answered with an error and how many of those were throttles, and how
 * many requests were the SDK's own retries (attempt 2 or later in its {@code amz-sdk-request}
 * header). The README's figures come from these files.
 */
final class WireFigures {
  private WireFigures() {}

  static void write(Class<?> testClass, List<WireAws.Served> served) throws IOException {
    Map<String, long[]> byOperation = new TreeMap<>();
    for (WireAws.Served s : served) {
      long[] n = byOperation.computeIfAbsent(s.service() + "." + s.operation(), k -> new long[4]);
      n[0]++;
      if (s.errorCode() != null) {
        n[1]++;
      }
      if (s.errorCode() != null && s.errorCode().startsWith("Throttling")) {
        n[2]++;
      }
      if (s.attempt() > 1) {
        n[3]++;
      }
    }
    StringBuilder b = new StringBuilder();
    long total = 0;
    long errors = 0;
    long throttles = 0;
    long retries = 0;
    for (var e : byOperation.entrySet()) {
      long[] n = e.getValue();
      total += n[0];
      errors += n[1];
      throttles += n[2];
      retries += n[3];
      b.append(e.getKey())
          .append(" requests=")
          .append(n[0])
          .append(" errors=")
          .append(n[1])
          .append(" throttled=")
          .append(n[2])
          .append(" sdk_retries=")
          .append(n[3])
          .append('\n');
    }
    b.append("TOTAL requests=")
        .append(total)
        .append(" errors=")
        .append(errors)
        .append(" throttled=")
        .append(throttles)
        .append(" sdk_retries=")
        .append(retries)
        .append('\n');
    Path dir = Path.of("target", "wire-figures");
    Files.createDirectories(dir);
    Files.writeString(
        dir.resolve(testClass.getSimpleName() + ".txt"), b.toString(), StandardCharsets.UTF_8);
  }
}
