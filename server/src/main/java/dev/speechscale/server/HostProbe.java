package dev.speechscale.server;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * How fast the core it runs on does an engine's work, now: the thread CPU time of one fixed unit (a
 * Flite synthesis of {@link #TEXT}), every {@code PERIOD_MS}. The local platform runs one per core
 * its instances are pinned to, outside their cgroups, while a measurement runs (replay, qmax): the
 * cores of a shared host switch between speeds for tens of seconds at a time, and an instance's
 * service time follows its core (measurements/simulator-calibration.md, "The host's speed"). CPU
 * time, not wall time, so neither the scheduler nor a quota counts, only how fast the core ran the
 * instructions.
 *
 * <p>Usage: {@code java --enable-native-access=ALL-UNNAMED -cp <server classpath>
 * dev.speechscale.server.HostProbe PERIOD_MS [TEXT]} (TEXT: another unit of work than {@link
 * #TEXT}). Prints {@code ready}, then one line per unit: {@code <epoch ms> <cpu µs>}. Exits when
 * its standard input closes (the process that started it stopped or died), so a probe never
 * outlives its measurement.
 */
public final class HostProbe {
  /**
   * The unit of work: short (about 18 ms of a fast core here, mostly Flite's per-utterance work).
   */
  public static final String TEXT = "One two three.";

  /** Units run before the first one reported: the upcall path and the voice are cold. */
  static final int UNREPORTED = 5;

  private HostProbe() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: HostProbe PERIOD_MS [TEXT]");
      System.exit(2);
    }
    long periodMs;
    try {
      periodMs = Long.parseLong(args[0]);
    } catch (NumberFormatException e) {
      periodMs = -1;
    }
    if (periodMs < 1) {
      System.err.println("HostProbe: PERIOD_MS (" + args[0] + ") must be a whole number >= 1");
      System.exit(2);
    }
    Thread watch = new Thread(() -> exitOnEof(System.in), "stdin-watch");
    watch.setDaemon(true);
    watch.start();
    String text = args.length == 2 ? args[1] : TEXT;
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    try (FliteEngine engine = new FliteEngine(1)) {
      for (int i = 0; i < UNREPORTED; i++) {
        unit(engine, text);
      }
      System.out.println("ready");
      System.out.flush();
      while (true) {
        long before = cpu.getCurrentThreadCpuTime();
        unit(engine, text);
        long usedNs = cpu.getCurrentThreadCpuTime() - before;
        System.out.printf(
            Locale.ROOT, "%d %d%n", System.currentTimeMillis(), Math.round(usedNs / 1000.0));
        System.out.flush();
        Thread.sleep(periodMs);
      }
    }
  }

  /** One unit: the whole of {@code text}, its audio dropped; the samples it made. */
  static long unit(SpeechEngine engine, String text) {
    long[] samples = {0};
    engine.synthesize(
        text,
        engine.defaultVoice(),
        1.0,
        (pcm, offset, length) -> {
          samples[0] += length;
          return true;
        });
    return samples[0];
  }

  private static void exitOnEof(InputStream in) {
    try {
      while (in.read() >= 0) {
        // the parent writes nothing; a byte is ignored
      }
    } catch (IOException e) {
      // a broken pipe is the parent gone, as EOF is
    }
    System.exit(0);
  }
}
