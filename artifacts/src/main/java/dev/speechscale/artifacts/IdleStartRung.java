package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.speechscale.simulator.IdleStart;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The qmax artifact's open-loop rung below saturation (additive, {@code idle_start}): Poisson
 * arrivals at a share of the ladder's throughput, so that some requests find the instance idle and
 * others queue behind the one in service. Every closed-loop rung keeps the instance busy back to
 * back; this one measures what an instance below saturation does differently ({@link IdleStart}).
 *
 * <p>A request is <em>queued</em> when the server says it waited at least {@value #QUEUED_MS} ms
 * ({@code X-Queue-Wait-Us}), else <em>idle</em>. Service time is the response time less the queue
 * wait, first byte the time to the first audio byte less the queue wait, both from the send. The
 * factors are the idle requests' means over the queued requests' means, given only when each kind
 * has at least {@value #MIN_REQUESTS} requests.
 *
 * @param rateRps the offered rate
 * @param loadShare the rate over the ladder throughput it was taken from
 * @param seconds how long it was offered
 * @param idleRequests successful requests that did not wait
 * @param queuedRequests successful requests that waited
 * @param idleServiceMs their mean service time ({@code null} with none)
 * @param queuedServiceMs the queued requests' mean service time ({@code null} with none)
 * @param idleFirstByteMs the idle requests' mean first byte after their start
 * @param queuedFirstByteMs the queued requests' mean first byte after their start
 * @param note why there are no factors, when there are none ({@code null} otherwise)
 */
public record IdleStartRung(
    double rateRps,
    double loadShare,
    double seconds,
    int idleRequests,
    int queuedRequests,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double idleServiceMs,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double queuedServiceMs,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double idleFirstByteMs,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double queuedFirstByteMs,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String note) {

  /** A request that waited this long in the server's queue started behind another. */
  public static final double QUEUED_MS = 1.0;

  /** Fewest requests of each kind for a factor. */
  public static final int MIN_REQUESTS = 30;

  /**
   * One successful request of the rung, as the server and the client timed it.
   *
   * @param queueWaitMs the server's queue wait
   * @param responseMs send to the end of the response
   * @param firstByteMs send to the first audio byte
   */
  public record Served(double queueWaitMs, double responseMs, double firstByteMs) {}

  /** The rung from its successful requests. */
  public static IdleStartRung of(
      double rateRps, double loadShare, double seconds, List<Served> served) {
    List<Served> idle = served.stream().filter(s -> s.queueWaitMs() < QUEUED_MS).toList();
    List<Served> queued = served.stream().filter(s -> s.queueWaitMs() >= QUEUED_MS).toList();
    String note =
        idle.size() < MIN_REQUESTS || queued.size() < MIN_REQUESTS
            ? String.format(
                Locale.ROOT,
                "%d idle and %d queued requests; %d of each are needed for a factor",
                idle.size(),
                queued.size(),
                MIN_REQUESTS)
            : null;
    return new IdleStartRung(
        rateRps,
        loadShare,
        seconds,
        idle.size(),
        queued.size(),
        mean(idle, s -> s.responseMs() - s.queueWaitMs()),
        mean(queued, s -> s.responseMs() - s.queueWaitMs()),
        mean(idle, s -> s.firstByteMs() - s.queueWaitMs()),
        mean(queued, s -> s.firstByteMs() - s.queueWaitMs()),
        note);
  }

  private static @Nullable Double mean(
      List<Served> served, java.util.function.ToDoubleFunction<Served> f) {
    return served.isEmpty() ? null : served.stream().mapToDouble(f).average().orElseThrow();
  }

  /**
   * The simulator's idle start from this rung, or empty when either kind has fewer than {@value
   * #MIN_REQUESTS} requests or a mean is not positive.
   *
   * @param file the artifact's file, for the derivation
   */
  public Optional<IdleStart> idleStart(String file) {
    Double idleS = idleServiceMs;
    Double queuedS = queuedServiceMs;
    Double idleB = idleFirstByteMs;
    Double queuedB = queuedFirstByteMs;
    if (idleRequests < MIN_REQUESTS
        || queuedRequests < MIN_REQUESTS
        || idleS == null
        || queuedS == null
        || idleB == null
        || queuedB == null
        || !positive(idleS)
        || !positive(queuedS)
        || !positive(idleB)
        || !positive(queuedB)) {
      return Optional.empty();
    }
    return Optional.of(
        new IdleStart(
            idleS / queuedS,
            idleB / queuedB,
            String.format(
                Locale.ROOT,
                "qmax's open-loop rung at %.3g req/s in %s: %d idle against %d queued requests,"
                    + " service %.1f / %.1f ms, first byte %.1f / %.1f ms",
                rateRps,
                file,
                idleRequests,
                queuedRequests,
                idleS,
                queuedS,
                idleB,
                queuedB)));
  }

  /** One line: the counts, the means and the factors (or why there are none). */
  public String summary() {
    Optional<IdleStart> f = idleStart("this ladder");
    return String.format(
            Locale.ROOT,
            "%d idle and %d queued requests at %.2f req/s; service %s / %s ms, first byte %s / %s"
                + " ms",
            idleRequests,
            queuedRequests,
            rateRps,
            ms(idleServiceMs),
            ms(queuedServiceMs),
            ms(idleFirstByteMs),
            ms(queuedFirstByteMs))
        + f.map(i ->
                String.format(
                    Locale.ROOT,
                    ": an idle start takes x%.3f the service, x%.3f the first byte",
                    i.serviceFactor(),
                    i.firstByteFactor()))
            .orElse(": no factors (" + (note == null ? "a mean is not positive" : note) + ")");
  }

  private static String ms(@Nullable Double v) {
    return v == null ? "-" : String.format(Locale.ROOT, "%.1f", v);
  }

  private static boolean positive(double v) {
    return v > 0 && !Double.isInfinite(v);
  }
}
