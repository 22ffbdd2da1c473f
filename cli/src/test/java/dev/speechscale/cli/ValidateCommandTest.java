package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code validate}'s refusals that come before any endpoint is touched. */
class ValidateCommandTest {

  private static CliRun validate(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] all = new String[args.length + 1];
    all[0] = "validate";
    System.arraycopy(args, 0, all, 1, args.length);
    int code = TtsBench.run(all, new PrintWriter(out), new PrintWriter(err));
    return new CliRun(code, out.toString(), err.toString());
  }

  @Test
  void validate_configAtTheFilesystemRoot_refusesTheMissingDefaultPlanWithoutAStackTrace() {
    // the root has no parent folder: the default plan beside it was an NPE and a stack trace
    CliRun run = validate("--model", "m", "--config", "/");
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err())
        .startsWith("error: /plan-m.json no such file. A plan artifact is written by")
        .doesNotContain("Exception");
  }
}
