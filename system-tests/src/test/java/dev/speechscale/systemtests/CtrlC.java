package dev.speechscale.systemtests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C as a terminal sends it: {@code tts-bench} runs as a child in a process group of its own
 * with SIGINT at its default disposition, and the signal goes to the whole group, as a terminal
 * sends it to its foreground job.
 *
 * <p>Why the wrapper: a job a script starts in the background begins with SIGINT ignored, and the
 * JVM keeps an ignored SIGINT ignored, so such a test proves nothing; the JVM running the tests may
 * itself have SIGINT ignored (CI starts it without a terminal). Perl, which every Debian system has
 * ({@code perl-base} is essential), starts a new session (so a new process group whose id is the
 * child's pid), resets SIGINT to its default, and execs the JVM, which then installs its own
 * handler: shutdown hooks run, and the exit status is 130.
 */
final class CtrlC {
  private CtrlC() {}

  /** How the interrupted command ended. */
  record Ended(int exitCode, Duration signalToExit, String output) {}

  /**
   * Starts {@code tts-bench args} in its own process group, waits (at most {@code startBound})
   * until its output contains {@code marker}, sends SIGINT to the group, and waits (at most 60 s)
   * for it to end. The group is killed if anything fails on the way.
   */
  static Ended interrupt(Path log, String marker, Duration startBound, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.addAll(
        List.of(
            "perl",
            "-e",
            "use POSIX (); POSIX::setsid() or die \"setsid: $!\"; $SIG{INT} = 'DEFAULT';"
                + " exec @ARGV or die \"exec: $!\";"));
    command.addAll(Cli.ttsBenchCommand(args));
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    try {
      long deadline = System.nanoTime() + startBound.toNanos();
      while (!read(log).contains(marker)) {
        if (!p.isAlive()) {
          throw new AssertionError(
              "tts-bench " + args[0] + " ended before '" + marker + "':\n" + read(log));
        }
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              "tts-bench "
                  + args[0]
                  + " printed no '"
                  + marker
                  + "' in "
                  + startBound
                  + ":\n"
                  + read(log));
        }
        p.waitFor(100, TimeUnit.MILLISECONDS);
      }
      long signalled = System.nanoTime();
      signalGroup(p.pid(), "INT");
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        throw new AssertionError(
            "tts-bench " + args[0] + " still runs 60 s after SIGINT:\n" + read(log));
      }
      return new Ended(p.exitValue(), Duration.ofNanos(System.nanoTime() - signalled), read(log));
    } finally {
      if (p.isAlive()) {
        signalGroup(p.pid(), "KILL");
        p.waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  private static void signalGroup(long pgid, String signal)
      throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, "--", "-" + pgid).inheritIO().start();
    if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new AssertionError("kill -" + signal + " -- -" + pgid + " failed");
    }
  }

  private static String read(Path log) throws IOException {
    return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
  }
}
