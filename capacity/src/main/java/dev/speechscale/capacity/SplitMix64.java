package dev.speechscale.capacity;

/**
 * SplitMix64: a tiny, fully specified generator, so a seeded simulation gives the same number on
 * every JDK and platform (the published number in a plan must not depend on the runtime's RNG).
 */
public final class SplitMix64 {
  private long state;

  public SplitMix64(long seed) {
    this.state = seed;
  }

  public long nextLong() {
    long z = (state += 0x9E3779B97F4A7C15L);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Uniform in [0, 1) with 53 random bits. */
  public double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }

  /** Uniform in [0, bound). */
  public int nextInt(int bound) {
    if (bound <= 0) {
      throw new CapacityException("bound (" + bound + ") must be positive");
    }
    return (int) ((nextLong() >>> 33) % bound);
  }
}
