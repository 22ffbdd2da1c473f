package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * 10,000 requests over real HTTP mixing every kind of bad input and rude client with valid
 * requests, against a small gate bound, so leaked permits would turn later valid requests into
 * 503s. Afterwards: nothing in flight, no 500, every valid request got audio, heap back near its
 * baseline.
 */
class AbuseSuiteTest {
  private static final int REQUESTS = 10_000;
  private static final int CLIENTS = 8;

  enum Kind {
    VALID_STREAM,
    VALID_BUFFERED,
    MALFORMED_JSON,
    NON_OBJECT_JSON,
    HUGE_BODY,
    UNKNOWN_VOICE,
    SPEED_OUT_OF_RANGE,
    SAMPLE_RATE_OUT_OF_SET,
    INVALID_UTF8,
    TEXT_TOO_LONG,
    HANG_UP_MID_BODY,
    HANG_UP_MID_STREAM
  }

  private static final String[] SENTENCES = {
    "Hello there.", "Good morning.", "The tea is hot.", "Turn left here.", "It is raining."
  };

  private static long heapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  @Test
  void tenThousandMixedRequests_leaveNoLeakNo500AndAudioForEveryValidOne() throws Exception {
    // a bound of 8x the clients: rude clients overlap their next request with the server noticing
    // the hang-up, but one leaked permit per bad request would still exhaust it within a second
    try (TestServer s =
        TestServer.start(new FliteEngine(2), "--max-queue-depth", Integer.toString(8 * CLIENTS))) {
      for (int i = 0; i < 5; i++) {
        assertThat(s.post("{\"text\":\"Warm up.\"}").statusCode()).isEqualTo(200);
      }
      long baselineHeap = heapAfterGc();
      Map<Kind, AtomicInteger> sent = new ConcurrentHashMap<>();
      Map<String, AtomicInteger> statuses = new ConcurrentHashMap<>();
      List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      AtomicInteger validWithAudio = new AtomicInteger();
      Random seeds = new Random(20_261_130L);
      try (ExecutorService clients = Executors.newFixedThreadPool(CLIENTS)) {
        List<Future<?>> futures = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
          long seed = seeds.nextLong();
          futures.add(
              clients.submit(() -> {
                Random r = new Random(seed);
                for (int i = 0; i < REQUESTS / CLIENTS; i++) {
                  Kind kind = pick(r);
                  sent.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
                  try {
                    int status = send(s, kind, r, validWithAudio, failures);
                    statuses
                        .computeIfAbsent(kind + "=" + status, k -> new AtomicInteger())
                        .incrementAndGet();
                  } catch (Exception e) {
                    failures.add(kind + ": " + e);
                  }
                }
                return null;
              }));
        }
        for (Future<?> f : futures) {
          f.get(10, TimeUnit.MINUTES);
        }
      }
      s.awaitIdle();
      long afterHeap = heapAfterGc();
      System.out.printf(
          "abuse suite: %s%nstatuses: %s%nheap after GC: baseline %d MiB, after %d MiB%n",
          sent, new java.util.TreeMap<>(statuses), baselineHeap >> 20, afterHeap >> 20);

      assertThat(failures).isEmpty();
      assertThat(sent.values().stream().mapToInt(AtomicInteger::get).sum()).isEqualTo(REQUESTS);
      assertThat(sent.keySet()).containsExactlyInAnyOrder(Kind.values());
      assertThat(statuses.keySet()).noneMatch(k -> k.endsWith("=500"));
      int valid = sent.get(Kind.VALID_STREAM).get() + sent.get(Kind.VALID_BUFFERED).get();
      assertThat(validWithAudio.get()).isEqualTo(valid);
      var gate = s.runtime.gate.snapshot();
      assertThat(gate.inFlight()).isZero();
      assertThat(gate.queued()).isZero();
      assertThat(gate.executing()).isZero();
      assertThat(s.server.metrics().responsesWithStatus(500)).isZero();
      assertThat(afterHeap - baselineHeap).as("heap growth in bytes").isLessThan(48L << 20);
    }
  }

  private static Kind pick(Random r) {
    int p = r.nextInt(100);
    if (p < 10) {
      return Kind.VALID_STREAM;
    }
    if (p < 13) {
      return Kind.VALID_BUFFERED;
    }
    if (p < 16) {
      return Kind.HANG_UP_MID_STREAM;
    }
    Kind[] bad = {
      Kind.MALFORMED_JSON, Kind.NON_OBJECT_JSON, Kind.HUGE_BODY, Kind.UNKNOWN_VOICE,
      Kind.SPEED_OUT_OF_RANGE, Kind.SAMPLE_RATE_OUT_OF_SET, Kind.INVALID_UTF8, Kind.TEXT_TOO_LONG,
      Kind.HANG_UP_MID_BODY
    };
    return bad[r.nextInt(bad.length)];
  }

  private static int send(
      TestServer s, Kind kind, Random r, AtomicInteger validWithAudio, List<String> failures)
      throws Exception {
    String sentence = SENTENCES[r.nextInt(SENTENCES.length)];
    return switch (kind) {
      case VALID_STREAM, VALID_BUFFERED -> {
        boolean stream = kind == Kind.VALID_STREAM;
        HttpResponse<byte[]> reply =
            s.post("{\"text\":\"" + sentence + "\",\"stream\":" + stream + "}");
        byte[] body = reply.body();
        if (reply.statusCode() == 200
            && body.length > 44 + 1600
            && new String(body, 0, 4, StandardCharsets.US_ASCII).equals("RIFF")
            && Pcm.rms(body, 44, body.length - 44) > 100) {
          validWithAudio.incrementAndGet();
        } else {
          failures.add(kind + " got " + reply.statusCode() + " with " + body.length + " bytes");
        }
        yield reply.statusCode();
      }
      case MALFORMED_JSON -> {
        String[] junk = {
          "{",
          "{\"text\":",
          "{\"text\":\"hi\"",
          "text=hi",
          "{'text':'hi'}",
          "{\"text\":\"hi\"}}",
          "\u0000\u0001"
        };
        yield expect(s, junk[r.nextInt(junk.length)], 400, failures);
      }
      case NON_OBJECT_JSON -> {
        String[] values = {"[]", "[{\"text\":\"hi\"}]", "\"hi\"", "42", "null", "true"};
        yield expect(s, values[r.nextInt(values.length)], 400, failures);
      }
      case HUGE_BODY ->
          expect(s, "{\"text\":\"" + "x".repeat(70_000 + r.nextInt(30_000)) + "\"}", 413, failures);
      case UNKNOWN_VOICE ->
          expect(s, "{\"text\":\"hi\",\"voice\":\"voice_" + r.nextInt(1000) + "\"}", 400, failures);
      case SPEED_OUT_OF_RANGE -> {
        String[] speeds = {"0", "-1", "0.49", "2.01", "100", "1e308", "\"fast\"", "[]"};
        yield expect(
            s,
            "{\"text\":\"hi\",\"speed\":" + speeds[r.nextInt(speeds.length)] + "}",
            400,
            failures);
      }
      case SAMPLE_RATE_OUT_OF_SET -> {
        String[] rates = {"44100", "48000", "12345", "0", "-16000", "16000.5", "\"16000\""};
        yield expect(
            s,
            "{\"text\":\"hi\",\"sample_rate\":" + rates[r.nextInt(rates.length)] + "}",
            400,
            failures);
      }
      case INVALID_UTF8 -> {
        byte[] body = "{\"text\":\"caf\u00e9 XX\"}".getBytes(StandardCharsets.UTF_8);
        body[body.length - 5] = (byte) 0xFF;
        body[body.length - 4] = (byte) (0x80 + r.nextInt(0x40));
        RawHttp.Reply reply = RawHttp.post(s.port(), body);
        if (reply.status() != 400) {
          failures.add("INVALID_UTF8 got " + reply.status());
        }
        yield reply.status();
      }
      case TEXT_TOO_LONG ->
          expect(s, "{\"text\":\"" + "word ".repeat(900 + r.nextInt(500)) + "\"}", 400, failures);
      case HANG_UP_MID_BODY -> {
        byte[] part = "{\"text\":\"I will never fin".getBytes(StandardCharsets.UTF_8);
        RawHttp.hangUpMidBody(
            s.port(),
            200 + r.nextInt(1000),
            java.util.Arrays.copyOf(part, 1 + r.nextInt(part.length)));
        yield 0;
      }
      case HANG_UP_MID_STREAM -> {
        int status =
            RawHttp.hangUpMidStream(s.port(), "{\"text\":\"" + (sentence + " ").repeat(3) + "\"}");
        if (status != 200) {
          failures.add("HANG_UP_MID_STREAM saw status " + status + " before hanging up");
        }
        yield status;
      }
    };
  }

  private static int expect(TestServer s, String json, int status, List<String> failures)
      throws Exception {
    HttpResponse<byte[]> reply =
        s.http.send(
            HttpRequest.newBuilder(s.base.resolve("/invocations"))
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    String body = new String(reply.body(), StandardCharsets.UTF_8);
    if (reply.statusCode() != status || !body.startsWith("{\"error\":")) {
      failures.add(
          "expected "
              + status
              + " for "
              + json.substring(0, Math.min(60, json.length()))
              + " but got "
              + reply.statusCode()
              + " "
              + body);
    }
    return reply.statusCode();
  }
}
