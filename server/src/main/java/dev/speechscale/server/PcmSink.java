package dev.speechscale.server;

/** Receives PCM chunks from an engine; returning {@code false} asks the engine to stop. */
@FunctionalInterface
public interface PcmSink {

  /**
   * Accepts {@code length} 16-bit samples starting at {@code offset}. The array may be reused by
   * the engine after this call returns, so a sink that keeps the samples must copy them.
   *
   * @return true to continue, false to cancel the synthesis at this chunk boundary
   */
  boolean accept(short[] samples, int offset, int length);
}
