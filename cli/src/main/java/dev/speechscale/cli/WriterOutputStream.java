package dev.speechscale.cli;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Bridges a PrintStream-taking progress printer to the command's injected stderr writer. */
final class WriterOutputStream extends OutputStream {
  private final PrintWriter writer;
  private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

  WriterOutputStream(PrintWriter writer) {
    this.writer = writer;
  }

  /** A UTF-8, auto-flushing PrintStream onto {@code writer}. */
  static java.io.PrintStream printStream(PrintWriter writer) {
    return new java.io.PrintStream(new WriterOutputStream(writer), true, StandardCharsets.UTF_8);
  }

  @Override
  public synchronized void write(int b) {
    line.write(b);
    if (b == '\n') {
      flush();
    }
  }

  @Override
  public synchronized void flush() {
    writer.print(line.toString(StandardCharsets.UTF_8));
    writer.flush();
    line.reset();
  }
}
