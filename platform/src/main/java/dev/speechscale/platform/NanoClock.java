package dev.speechscale.platform;

/** A monotonic nanosecond clock, injected so tests can drive time. */
@FunctionalInterface
public interface NanoClock {
  NanoClock SYSTEM = System::nanoTime;

  long nanoTime();
}
