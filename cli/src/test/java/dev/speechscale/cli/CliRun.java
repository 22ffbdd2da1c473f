package dev.speechscale.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs a command as a user would and keeps what it printed. */
record CliRun(int exitCode, String out, String err) {

  static CliRun of(Object command, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Cli.run(command, args, new PrintWriter(out), new PrintWriter(err));
    return new CliRun(code, out.toString(), err.toString());
  }
}
