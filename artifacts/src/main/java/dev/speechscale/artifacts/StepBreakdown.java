package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.speechscale.capacity.Percentiles;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Where one rung's time to first audio went on the server, and how much audio a request carried:
 * the server's queue wait (admission to an execution slot) and its engine's time to first chunk, as
 * p50 and p95 over the rung's successful requests in the measurement window, and their mean seconds
 * of audio. Recorded per step under {@code breakdown} (additive; older artifacts and servers that
 * send no timing headers carry none). Percentiles interpolate linearly, as the step's TTFAB
 * percentiles do.
 *
 * @param timedRequests successful requests in the window whose response carried the server's queue
 *     wait
 * @param queueWaitP50Ms p50 queue wait, {@code null} when no request carried it
 * @param queueWaitP95Ms p95 queue wait
 * @param engineFirstChunkP50Ms p50 engine time to first chunk, {@code null} when none carried it
 * @param engineFirstChunkP95Ms p95 engine time to first chunk
 * @param audioRequests successful requests in the window whose audio length is known
 * @param audioMeanS mean seconds of audio per such request, {@code null} when none
 * @param serviceMeanMs mean service time of the timed requests: each one's response time (sent to
 *     last byte) less its queue wait, the quantity the warm-up ramp records per request ({@code
 *     warmup_ramp}); additive, {@code null} in older artifacts and when no response said its queue
 *     wait
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StepBreakdown(
    @Nullable Long timedRequests,
    @Nullable Double queueWaitP50Ms,
    @Nullable Double queueWaitP95Ms,
    @Nullable Double engineFirstChunkP50Ms,
    @Nullable Double engineFirstChunkP95Ms,
    @Nullable Long audioRequests,
    @Nullable Double audioMeanS,
    @Nullable Double serviceMeanMs) {

  /**
   * The breakdown of one window's successful requests; entries of -1 (the response did not say) are
   * left out of their figure.
   *
   * @param queueWaitUs each request's server queue wait, microseconds, or -1
   * @param engineFirstChunkUs each request's engine time to first chunk, microseconds, or -1
   * @param audioSeconds each request's seconds of audio, or -1
   * @return the breakdown, or {@code null} when no request said anything
   */
  public static @Nullable StepBreakdown of(
      long[] queueWaitUs, long[] engineFirstChunkUs, double[] audioSeconds) {
    double[] unknown = new double[queueWaitUs.length];
    Arrays.fill(unknown, Double.NaN);
    return of(queueWaitUs, engineFirstChunkUs, audioSeconds, unknown);
  }

  /**
   * The breakdown of one window's successful requests with their mean service time; entries of -1
   * (or NaN for a service time) are left out of their figure.
   *
   * @param queueWaitUs each request's server queue wait, microseconds, or -1
   * @param engineFirstChunkUs each request's engine time to first chunk, microseconds, or -1
   * @param audioSeconds each request's seconds of audio, or -1
   * @param serviceMs each request's response time (sent to last byte) less its queue wait,
   *     milliseconds, or NaN when its response did not say its queue wait
   * @return the breakdown, or {@code null} when no request said anything
   */
  public static @Nullable StepBreakdown of(
      long[] queueWaitUs, long[] engineFirstChunkUs, double[] audioSeconds, double[] serviceMs) {
    long[] queue = known(queueWaitUs);
    long[] engine = known(engineFirstChunkUs);
    double[] audio = Arrays.stream(audioSeconds).filter(a -> a >= 0).toArray();
    if (queue.length == 0 && engine.length == 0 && audio.length == 0) {
      return null;
    }
    return new StepBreakdown(
        (long) queue.length,
        ms(queue, 50),
        ms(queue, 95),
        ms(engine, 50),
        ms(engine, 95),
        (long) audio.length,
        audio.length == 0 ? null : Arrays.stream(audio).sum() / audio.length,
        mean(Arrays.stream(serviceMs).filter(Double::isFinite).toArray()));
  }

  private static @Nullable Double mean(double[] xs) {
    return xs.length == 0 ? null : Arrays.stream(xs).sum() / xs.length;
  }

  /**
   * Mean seconds of audio per request over a whole ladder: every step's mean weighted by its
   * requests of known length. Audio per request is a property of the texts, not of N, so every
   * rung, usable or not, counts.
   *
   * @return the mean, or {@code null} when no step recorded audio (older artifacts)
   */
  public static @Nullable Double meanAudioSeconds(java.util.List<QmaxStep> steps) {
    double seconds = 0;
    long requests = 0;
    for (QmaxStep step : steps) {
      StepBreakdown b = step.breakdown();
      Double mean = b == null ? null : b.audioMeanS();
      Long n = b == null ? null : b.audioRequests();
      if (mean != null && n != null) {
        seconds += mean * n;
        requests += n;
      }
    }
    return requests == 0 || !(seconds > 0) ? null : seconds / requests;
  }

  private static long[] known(long[] micros) {
    long[] out = Arrays.stream(micros).filter(v -> v >= 0).toArray();
    Arrays.sort(out);
    return out;
  }

  private static @Nullable Double ms(long[] sortedMicros, double p) {
    return sortedMicros.length == 0 ? null : Percentiles.linear(sortedMicros, p) / 1000.0;
  }
}
