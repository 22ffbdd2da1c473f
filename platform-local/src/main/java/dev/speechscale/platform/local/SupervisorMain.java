package dev.speechscale.platform.local;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The supervisor process: {@code java ... SupervisorMain <endpoint state dir>}. Started in its own
 * session by {@code speech-infra deploy}; SIGTERM shuts it down gracefully (instances drained and
 * stopped).
 */
public final class SupervisorMain {
  private SupervisorMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: SupervisorMain <endpoint state dir>");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    LocalState.EndpointRecord spec =
        LocalState.read(LocalState.endpointFile(dir), LocalState.EndpointRecord.class)
            .orElseThrow(() -> new IllegalStateException("no endpoint.json in " + dir));
    PrintStream log = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    Supervisor supervisor = new Supervisor(dir, spec, Clock.systemUTC(), log);
    Thread main = Thread.currentThread();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> {
              supervisor.requestShutdown();
              try {
                main.join(60_000);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }));
    supervisor.run();
  }
}
