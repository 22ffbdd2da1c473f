package dev.speechscale.platform.aws;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Runs an external command (the AWS CDK CLI); tests substitute a recording fake. */
@FunctionalInterface
public interface CommandRunner {

  /**
   * Runs {@code command} in {@code workDir} with {@code extraEnvironment} added to this process's
   * environment, copying its output (stdout and stderr) to {@code out}.
   *
   * @return the exit code
   * @throws IOException when the command cannot be started (not installed)
   */
  int run(List<String> command, Map<String, String> extraEnvironment, Path workDir, PrintStream out)
      throws IOException;

  /** Runs real processes. */
  CommandRunner PROCESS =
      (command, extraEnvironment, workDir, out) -> {
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
        pb.environment().putAll(extraEnvironment);
        pb.redirectErrorStream(true);
        pb.redirectInput(ProcessBuilder.Redirect.INHERIT);
        Process p = pb.start();
        try (InputStream in = p.getInputStream()) {
          in.transferTo(out);
        }
        try {
          return p.waitFor();
        } catch (InterruptedException e) {
          p.destroy();
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while " + command.getFirst() + " ran", e);
        }
      };
}
