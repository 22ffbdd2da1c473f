import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the metrics cost one refusal on speech-server, per call pair, both ways: the hand-written
 * metrics before the Prometheus client (ConcurrentHashMap.computeIfAbsent + LongAdder, as
 * ServerMetrics at dbb21f0) and the client's labelled counters (labelValues(...).inc(), as
 * ServerMetrics now): rejected{reason} and responses{transport,code}, exactly the two calls
 * InvocationsHandler.rejectSaturated makes. Interleaved rounds, one thread, after a warm-up; a
 * timing loop, not JMH: it bounds the size (tens of nanoseconds against a refusal's tens of
 * microseconds), it does not resolve small differences.
 *
 * <p>java -cp 'PROMETHEUS_JARS/*' measurements/metrics-ab/MetricCallCost.java [rounds]
 */
public class MetricCallCost {
  static final int CALLS = 2_000_000;

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    PrometheusRegistry registry = new PrometheusRegistry();
    Counter rejected =
        Counter.builder().name("r_total").labelNames("reason").withoutExemplars().register(registry);
    Counter responses =
        Counter.builder()
            .name("s_total")
            .labelNames("transport", "code")
            .withoutExemplars()
            .register(registry);
    Map<String, LongAdder> oldRejected = new ConcurrentHashMap<>();
    Map<String, Map<Integer, LongAdder>> oldResponses = new ConcurrentHashMap<>();
    long sink = 0;
    for (int round = -3; round < rounds; round++) { // three warm-up rounds
      long t0 = System.nanoTime();
      for (int i = 0; i < CALLS; i++) {
        oldRejected.computeIfAbsent("queue_saturated", r -> new LongAdder()).increment();
        oldResponses
            .computeIfAbsent("http", t -> new ConcurrentHashMap<>())
            .computeIfAbsent(503, k -> new LongAdder())
            .increment();
      }
      long t1 = System.nanoTime();
      for (int i = 0; i < CALLS; i++) {
        rejected.labelValues("queue_saturated").inc();
        responses.labelValues("http", Integer.toString(503)).inc();
      }
      long t2 = System.nanoTime();
      sink += oldRejected.get("queue_saturated").sum();
      if (round >= 0) {
        double before = (t1 - t0) / (double) CALLS;
        double after = (t2 - t1) / (double) CALLS;
        System.out.printf(
            "round %d: hand-written %.1f ns, prometheus %.1f ns per refusal's two calls (ratio %.2f)%n",
            round, before, after, after / before);
      }
    }
    System.out.println("(" + sink + ")");
  }
}
