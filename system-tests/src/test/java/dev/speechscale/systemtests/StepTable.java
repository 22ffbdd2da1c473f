package dev.speechscale.systemtests;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The steps of the AWS chain beside the same steps on the local API, as a markdown table. */
final class StepTable {
  private StepTable() {}

  static String markdown(@Nullable StepCalls local, StepCalls aws) {
    Map<String, StepCalls.Step> onLocal = local == null ? Map.of() : local.byName();
    StringBuilder b = new StringBuilder();
    b.append("Measured ").append(LocalDate.now(ZoneOffset.UTC)).append(" (UTC).\n\n");
    b.append(
        "| step | local API: wall s | local API: calls (throttled) | AWS wire: wall s | AWS wire:"
            + " calls (throttled) | wall ratio aws/local | AWS calls per operation |\n");
    b.append("|---|---:|---:|---:|---:|---:|---|\n");
    for (StepCalls.Step s : aws.steps()) {
      StepCalls.Step l = onLocal.get(s.name());
      StringBuilder ops = new StringBuilder();
      s.aws()
          .forEach((op, c) -> {
            if (!ops.isEmpty()) {
              ops.append(", ");
            }
            ops.append(op.substring(op.indexOf('.') + 1)).append(' ').append(c.calls());
            c.errors()
                .forEach(
                    (code, n) -> ops.append(" (").append(n).append(' ').append(code).append(')'));
          });
      b.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %.1f | %d (%d) | %s | %s |%n",
              s.name(),
              l == null ? "–" : String.format(Locale.ROOT, "%.1f", l.wallMs() / 1000.0),
              l == null ? "–" : l.localCalls() + " (" + l.localThrottles() + ")",
              s.wallMs() / 1000.0,
              s.awsCalls(),
              s.awsThrottles(),
              l == null || l.wallMs() == 0
                  ? "–"
                  : String.format(Locale.ROOT, "%.2f", (double) s.wallMs() / l.wallMs()),
              ops));
    }
    b.append("\nPer step, the AWS wire's calls reach the endpoint's control API as:\n\n");
    for (StepCalls.Step s : aws.steps()) {
      b.append("- ").append(s.name()).append(": ").append(s.local()).append('\n');
    }
    if (local != null) {
      b.append("\nPer step on the local API (`--platform local`):\n\n");
      for (StepCalls.Step s : local.steps()) {
        b.append("- ").append(s.name()).append(": ").append(s.local()).append('\n');
      }
    }
    return b.toString();
  }
}
