package dev.speechscale.systemtests;

import dev.speechscale.cli.SpeechInfra;
import dev.speechscale.cli.TtsBench;
import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the real CLI in-process, as a user would type it, and keeps what it printed. */
record Cli(int exitCode, String out, String err) {

  static Cli ttsBench(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = TtsBench.run(args, new PrintWriter(out), new PrintWriter(err));
    System.err.print(err);
    return new Cli(code, out.toString(), err.toString());
  }

  static Cli speechInfra(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = SpeechInfra.run(args, new PrintWriter(out), new PrintWriter(err));
    System.err.print(err);
    return new Cli(code, out.toString(), err.toString());
  }
}
