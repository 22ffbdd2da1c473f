package dev.speechscale.platform;

import org.jspecify.annotations.Nullable;

/**
 * What one response said about where its time went and how much audio it carried, beside the
 * client's own timing: the server's queue wait and engine time to first chunk (from its {@code
 * X-Queue-Wait-Us} and {@code X-Engine-First-Chunk-Us} headers) and the seconds of audio received
 * (audio bytes over the byte rate the format declares), and the instance that served it (the local
 * router's {@code X-Speechscale-Instance}; SageMaker's runtime does not say). Each is -1 (the
 * instance {@code null}) when the response did not say: a server or transport that sends no such
 * header, a format whose byte rate is unknown.
 *
 * @param queueWaitUs microseconds the admitted request waited for an execution slot, or -1
 * @param engineFirstChunkUs microseconds the engine took to its first chunk, or -1
 * @param audioSeconds seconds of audio received, or -1
 * @param instance the instance that served it, or {@code null}
 */
public record ResponseBreakdown(
    long queueWaitUs, long engineFirstChunkUs, double audioSeconds, @Nullable String instance) {

  /** A response that said none of it. */
  public static final ResponseBreakdown UNKNOWN = new ResponseBreakdown(-1, -1, -1, null);

  public ResponseBreakdown {
    if (queueWaitUs < -1 || engineFirstChunkUs < -1) {
      throw new IllegalArgumentException(
          "queue wait ("
              + queueWaitUs
              + " us) and engine first chunk ("
              + engineFirstChunkUs
              + " us) must be -1 (not sent) or at least 0");
    }
    if (!(audioSeconds == -1 || audioSeconds >= 0)) {
      throw new IllegalArgumentException(
          "audio seconds (" + audioSeconds + ") must be -1 (unknown) or at least 0");
    }
  }

  /** The server reported its queue wait. */
  public boolean hasQueueWait() {
    return queueWaitUs >= 0;
  }

  /** The audio's length is known. */
  public boolean hasAudioSeconds() {
    return audioSeconds >= 0;
  }
}
