package dev.speechscale.server;

import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.ScaleOutStage;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;

/**
 * {@code speech-server [serve] [options]}: binds, loads the engine, warms it up and serves until
 * SIGTERM/SIGINT, then drains. Exit codes: 0 after a clean stop, 1 when the engine cannot load or
 * its warm-up synthesis fails or start-up fails in any other way (the reason on stderr), 2 for a
 * usage error, 3 after the engine watchdog declared a call stuck (the instance drained and stopped
 * so the platform replaces it).
 *
 * <p>A stop on SIGTERM/SIGINT is a clean stop and exits 0, not the JVM's 143/130: the process
 * handles the signal itself ({@link #onTerminationSignals}) instead of letting the JVM die of it
 * with a shutdown hook attached. SageMaker (like {@code docker stop} and the local supervisor)
 * stops an instance with SIGTERM on every update, scale-in and deletion; that is the designed end
 * of an instance, and an exit code of 0 keeps it apart from a failure (1, 2, 3), from a signal the
 * server did not handle and from SageMaker's SIGKILL after 30 s (137). The shutdown hook stays for
 * every other way the JVM ends; either way the server is stopped exactly once.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.exit(
        run(
            args,
            System.getenv(),
            System.out,
            System.err,
            Engines::create,
            Main::onTerminationSignals));
  }

  static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    return run(args, env, out, err, Engines::create);
  }

  /** {@link #run} with the engine made by {@code engines} (tests pass one that fails). */
  static int run(
      String[] args,
      Map<String, String> env,
      PrintStream out,
      PrintStream err,
      java.util.function.Function<ServerConfig, SpeechEngine> engines) {
    // in-process callers (tests) leave the JVM's signal handling alone
    return run(args, env, out, err, engines, stop -> {});
  }

  /**
   * Runs {@code stop} on SIGTERM and SIGINT instead of letting the JVM exit 143/130: {@link #run}
   * then returns 0 once the server has drained. Only the process's entry point installs it.
   */
  // sun.misc.Signal (module jdk.unsupported, which the image's runtime has): the JDK's only way to
  // handle a signal; javac's "internal proprietary API" warning for it cannot be suppressed
  static void onTerminationSignals(Runnable stop) {
    for (String name : java.util.List.of("TERM", "INT")) {
      sun.misc.Signal.handle(
          new sun.misc.Signal(name),
          signal -> Thread.ofPlatform().name("speech-server-sig" + name).start(stop));
    }
  }

  /** {@link #run} that hands {@code terminationSignals} the action that stops the server. */
  static int run(
      String[] args,
      Map<String, String> env,
      PrintStream out,
      PrintStream err,
      java.util.function.Function<ServerConfig, SpeechEngine> engines,
      java.util.function.Consumer<Runnable> terminationSignals) {
    if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
      out.print(ServerConfig.USAGE);
      return 0;
    }
    ServerConfig config;
    try {
      config = ServerConfig.parse(Arrays.asList(args), env);
    } catch (UsageException e) {
      err.println("speech-server: " + e.getMessage());
      return 2;
    }
    Clock clock = Clock.systemUTC();
    Instant epoch =
        config
            .containerStart()
            .orElseGet(() -> ProcessHandle.current().info().startInstant().orElse(clock.instant()));
    StageMarkers markers = new StageMarkers(clock, epoch, out);
    SpeechServer server = new SpeechServer(config, out, NanoClock.SYSTEM, clock);
    try {
      server.start();
    } catch (Exception e) {
      err.println(
          "speech-server: cannot listen on "
              + config.host()
              + ":"
              + config.port()
              + ": "
              + e.getMessage()
              + "; pick another --port (0 = any free port)");
      return 1;
    }
    markers.mark(ScaleOutStage.FRAMEWORK_INIT);
    StopOnce stop = new StopOnce(server, config.drainTimeout(), out);
    Thread hook = Thread.ofPlatform().name("speech-server-shutdown").unstarted(stop);
    Runtime.getRuntime().addShutdownHook(hook);
    terminationSignals.accept(stop);
    SpeechRuntime runtime;
    try {
      runtime = loadAndWarm(config, server, markers, engines, err);
    } catch (EngineException e) {
      // every EngineException is made with a message
      return startupFailed(server, hook, err, String.valueOf(e.getMessage()));
    } catch (RuntimeException | LinkageError e) {
      return startupFailed(
          server,
          hook,
          err,
          "start-up failed: "
              + e.getClass().getName()
              + ": "
              + e.getMessage()
              + "; the server never turned ready (see the engine's install notes in"
              + " server/README.md)");
    }
    java.util.concurrent.atomic.AtomicReference<String> stuck =
        new java.util.concurrent.atomic.AtomicReference<>();
    runtime.watchdog.onStuck(reason -> {
      stuck.set(reason);
      err.println("speech-server: " + reason + "; draining, then exiting " + EXIT_ENGINE_STUCK);
      err.flush();
      // off the watchdog's thread: shutdown waits for requests that wait for the watchdog
      Thread.ofPlatform()
          .name("speech-server-stuck")
          .start(() -> server.shutdown(config.drainTimeout()));
    });
    try (RefusalLog refusals =
        new RefusalLog(
            Map.of(
                RefusalLog.QUEUE_SATURATED,
                () -> server.metrics().rejectedCount("queue_saturated"),
                RefusalLog.DELIBERATE_503,
                () -> server.metrics().deliberateHttp503()),
            out,
            Duration.ofSeconds(1))) {
      server.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (stuck.get() != null) {
      err.println("speech-server: exiting " + EXIT_ENGINE_STUCK + ": " + stuck.get());
      return EXIT_ENGINE_STUCK;
    }
    return 0;
  }

  /**
   * Drains and stops the server the first time it runs, whoever runs it (a signal's thread or the
   * shutdown hook); a later run waits for the first to finish, so the JVM never exits between
   * {@code server.join()} returning and the last line being printed.
   */
  private static final class StopOnce implements Runnable {
    private final SpeechServer server;
    private final Duration drain;
    private final PrintStream out;
    private final java.util.concurrent.atomic.AtomicBoolean started =
        new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.CountDownLatch done =
        new java.util.concurrent.CountDownLatch(1);

    StopOnce(SpeechServer server, Duration drain, PrintStream out) {
      this.server = server;
      this.drain = drain;
      this.out = out;
    }

    @Override
    public void run() {
      if (!started.compareAndSet(false, true)) {
        try {
          // the drain is bounded; a minute more covers stopping the listener and the engine
          done.await(drain.toSeconds() + 60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return;
      }
      try {
        boolean drained = server.shutdown(drain);
        out.println("speech-server stopped" + (drained ? "" : " (drain bound reached)"));
        out.flush();
      } finally {
        done.countDown();
      }
    }
  }

  /**
   * The exit code after the watchdog declared an engine call stuck: the native thread cannot be
   * stopped, so the process ends (after draining) and the platform starts a fresh instance.
   */
  static final int EXIT_ENGINE_STUCK = 3;

  /**
   * Loads the engine and proves it works: ready means one synthesis succeeded, so a warm-up that
   * fails throws instead of turning {@code /ping} to 200 in front of an engine that answers 500.
   */
  private static SpeechRuntime loadAndWarm(
      ServerConfig config,
      SpeechServer server,
      StageMarkers markers,
      java.util.function.Function<ServerConfig, SpeechEngine> engines,
      PrintStream err) {
    config.modelDir().ifPresent(dir -> verifyModelDirectory(dir, err));
    SpeechEngine engine = engines.apply(config);
    markers.mark(ScaleOutStage.WEIGHTS_READY);
    SpeechRuntime runtime = server.attach(engine);
    runtime.warmup();
    server.warmHttpPath();
    markers.mark(ScaleOutStage.WARMUP_DONE);
    server.markReady();
    markers.mark(ScaleOutStage.READY);
    return runtime;
  }

  /** Stops the never-ready server and names the reason; the process then exits 1. */
  private static int startupFailed(
      SpeechServer server, Thread hook, PrintStream err, String reason) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException alreadyExiting) {
      // the JVM is already shutting down; the hook stops the server itself
    }
    server.shutdown(Duration.ZERO);
    err.println("speech-server: " + reason);
    err.flush();
    return 1;
  }

  /** Checks the model directory's MANIFEST.sha256 (before weights_ready) and says what it did. */
  private static void verifyModelDirectory(java.nio.file.Path dir, PrintStream err) {
    new ModelDirectory(dir)
        .verifyManifest()
        .ifPresentOrElse(
            v ->
                err.println(
                    "speech-server: model directory "
                        + dir
                        + ": "
                        + v.files()
                        + " files ("
                        + v.bytes()
                        + " bytes) match "
                        + ModelDirectory.MANIFEST),
            () ->
                err.println(
                    "speech-server: model directory "
                        + dir
                        + " has no "
                        + ModelDirectory.MANIFEST
                        + "; its files are not verified"));
  }
}
