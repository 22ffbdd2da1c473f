package dev.speechscale.admission;

/** A monotonic nanosecond time source, injected so tests can advance time by hand. */
@FunctionalInterface
public interface Ticker {

  /** Monotonic time in nanoseconds; only differences between two readings are meaningful. */
  long nanoTime();

  /** The JVM's monotonic clock ({@link System#nanoTime()}). */
  static Ticker system() {
    return System::nanoTime;
  }
}
