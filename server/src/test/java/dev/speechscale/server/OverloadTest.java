package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.admission.GateSnapshot;
import java.lang.management.ManagementFactory;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Closed-loop overload at 10x the gate bound for a bounded number of requests: every request gets
 * audio or a 503 {@code queue_saturated}; the gate never holds more than its bound, so an admitted
 * request has at most bound - 1 requests ahead of it and its TTFAB is bounded by bound x service
 * time (FIFO order itself is proven in the admission module). Asserts structure, not wall-clock.
 */
class OverloadTest {
  private static final int BOUND = 4;
  private static final int CLIENTS = 10 * BOUND;
  private static final int PER_CLIENT = 6;

  @Test
  void tenTimesTheBound_everyRequestGetsAudioOrFast503_andTheBoundHolds() throws Exception {
    try (TestServer s =
        TestServer.start(new FliteEngine(2), "--max-queue-depth", Integer.toString(BOUND))) {
      s.post("{\"text\":\"Warm up.\"}");
      AtomicBoolean running = new AtomicBoolean(true);
      AtomicInteger maxInFlight = new AtomicInteger();
      AtomicInteger maxQueued = new AtomicInteger();
      Thread sampler =
          Thread.ofPlatform()
              .start(() -> {
                while (running.get()) {
                  GateSnapshot g = s.runtime.gate.snapshot();
                  maxInFlight.accumulateAndGet(g.inFlight(), Math::max);
                  maxQueued.accumulateAndGet(g.queued(), Math::max);
                  LockSupport.parkNanos(200_000); // sampling period, not synchronization
                }
              });
      AtomicInteger ok = new AtomicInteger();
      AtomicInteger rejected = new AtomicInteger();
      ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
      ConcurrentLinkedQueue<Long> admittedTtfabMs = new ConcurrentLinkedQueue<>();
      try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
        List<Future<?>> futures = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
          futures.add(
              clients.submit(() -> {
                for (int i = 0; i < PER_CLIENT; i++) {
                  long start = System.nanoTime();
                  HttpResponse<byte[]> r = s.post("{\"text\":\"Overload is handled with grace.\"}");
                  String body = new String(r.body(), StandardCharsets.ISO_8859_1);
                  if (r.statusCode() == 200
                      && body.startsWith("RIFF")
                      && r.body().length > 44 + 16_000) {
                    ok.incrementAndGet();
                    admittedTtfabMs.add((System.nanoTime() - start) / 1_000_000);
                  } else if (r.statusCode() == 503
                      && body.startsWith("{\"error\":\"queue_saturated\",\"queue_depth\":")
                      && body.contains("\"max_queue_depth\":" + BOUND)
                      && r.headers().firstValue("Retry-After").isPresent()) {
                    rejected.incrementAndGet();
                  } else {
                    unexpected.add(
                        r.statusCode() + " " + body.substring(0, Math.min(80, body.length())));
                  }
                }
                return null;
              }));
        }
        for (Future<?> f : futures) {
          f.get(5, TimeUnit.MINUTES);
        }
      } finally {
        running.set(false);
        sampler.join();
      }
      s.awaitIdle();
      System.gc();
      long heapMiB = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20;
      System.out.printf(
          "overload: ok=%d rejected=%d maxInFlight=%d maxQueued=%d heapAfterGc=%d MiB admitted-latency-ms(sorted)=%s%n",
          ok.get(),
          rejected.get(),
          maxInFlight.get(),
          maxQueued.get(),
          heapMiB,
          admittedTtfabMs.stream().sorted().toList());

      assertThat(unexpected).isEmpty();
      assertThat(ok.get() + rejected.get()).isEqualTo(CLIENTS * PER_CLIENT);
      assertThat(ok.get()).isPositive();
      assertThat(rejected.get()).isPositive();
      assertThat(maxInFlight.get()).isLessThanOrEqualTo(BOUND);
      assertThat(maxQueued.get()).isLessThanOrEqualTo(BOUND - 1);
      GateSnapshot after = s.runtime.gate.snapshot();
      assertThat(after.saturatedTotal()).isEqualTo(rejected.get());
      assertThat(after.inFlight()).isZero();
      // rejections never reached the queue or the engine: only admitted requests waited or ran
      assertThat(s.server.metrics().queueWait.count()).isEqualTo(after.admittedTotal());
      assertThat(heapMiB).isLessThan(256);
    }
  }
}
