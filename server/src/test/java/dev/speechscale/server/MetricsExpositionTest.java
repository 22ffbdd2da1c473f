package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /metrics} over loopback as a Prometheus server scrapes it: a text body every sample
 * line of which belongs to a declared family, the JVM's and the process's metrics, the status as
 * the label {@code code}, OpenMetrics when asked for, and gauges read from the gate at scrape time.
 */
class MetricsExpositionTest {
  private static final Pattern SAMPLE =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? (\\S+)");
  private static final Pattern META =
      Pattern.compile("# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) ?(.*)");

  @Test
  void metrics_prometheusText_everySampleBelongsToAFamilyDeclaredAboveIt() throws Exception {
    try (TestServer s = TestServer.start(new ScriptedEngine(1, 1))) {
      s.post("{\"text\":\"one\"}");
      s.awaitIdle();
      HttpResponse<String> r = s.get("/metrics");

      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("content-type"))
          .hasValue("text/plain; version=0.0.4; charset=utf-8");
      Map<String, String> types = new HashMap<>();
      Set<String> helped = new HashSet<>();
      Set<String> closed = new HashSet<>();
      String current = null;
      int samples = 0;
      for (String line : r.body().split("\n")) {
        Matcher meta = META.matcher(line);
        if (meta.matches()) {
          String family = meta.group(2);
          if (!family.equals(current)) {
            assertThat(closed).as("family %s appears in two groups", family).doesNotContain(family);
            if (current != null) {
              closed.add(current);
            }
            current = family;
          }
          if (meta.group(1).equals("TYPE")) {
            assertThat(types.put(family, meta.group(3))).as("second TYPE for " + family).isNull();
          } else {
            helped.add(family);
          }
          continue;
        }
        Matcher sample = SAMPLE.matcher(line);
        assertThat(sample.matches()).as("not a sample line: %s", line).isTrue();
        assertThat(familyOf(sample.group(1), types))
            .as("the family declared last, for sample %s", line)
            .isEqualTo(current);
        assertThat(Double.parseDouble(sample.group(3).replace("+Inf", "Infinity")))
            .as("value of %s", line)
            .isNotNaN();
        samples++;
      }
      assertThat(samples).isGreaterThan(50);
      assertThat(helped).containsAll(types.keySet());
    }
  }

  /** The family a sample line reports to: its own name, or a histogram's or summary's. */
  private static String familyOf(String sample, Map<String, String> types) {
    if (types.containsKey(sample)) {
      return sample;
    }
    for (String suffix : List.of("_bucket", "_count", "_sum")) {
      String base = sample.endsWith(suffix) ? sample.substring(0, sample.lastIndexOf(suffix)) : "";
      String type = types.get(base);
      if ("histogram".equals(type) || "summary".equals(type)) {
        return base;
      }
    }
    return "(undeclared " + sample + ")";
  }

  @Test
  void metrics_default_includeTheJvmsAndTheProcesssOwnMetrics() throws Exception {
    try (TestServer s = TestServer.start(new ScriptedEngine(1, 1))) {
      String body = s.get("/metrics").body();

      assertThat(body)
          .containsPattern("(?m)^jvm_memory_used_bytes\\{area=\"heap\"} \\d")
          .containsPattern("(?m)^jvm_threads_current \\d")
          .containsPattern("(?m)^jvm_gc_collection_seconds_count\\{gc=\"[^\"]+\"} \\d")
          .containsPattern("(?m)^process_cpu_seconds_total \\d")
          .containsPattern("(?m)^process_start_time_seconds \\d")
          .containsPattern("(?m)^process_resident_memory_bytes \\d");
    }
  }

  @Test
  void metrics_twoServersInOneJvm_eachExposesTheJvmMetricsOnItsOwnRegistry() throws Exception {
    try (TestServer a = TestServer.start(new ScriptedEngine(1, 1));
        TestServer b = TestServer.start(new ScriptedEngine(1, 1))) {
      a.post("{\"text\":\"only a\"}");
      a.awaitIdle();

      assertThat(a.get("/metrics").body())
          .contains("jvm_threads_current ")
          .contains("speech_server_responses_total{code=\"200\",transport=\"http\"} 1.0\n");
      assertThat(b.get("/metrics").body())
          .contains("jvm_threads_current ")
          .doesNotContain("speech_server_responses_total{");
    }
  }

  @Test
  void metrics_afterARequest_countItsResponseUnderCode200() throws Exception {
    try (TestServer s = TestServer.start(new ScriptedEngine(1, 1))) {
      s.post("{\"text\":\"counted\"}");
      s.post("{\"text\":\"too fast\",\"speed\":9}");
      s.awaitIdle();

      String body = s.get("/metrics").body();

      assertThat(body)
          .contains("speech_server_responses_total{code=\"200\",transport=\"http\"} 1.0\n")
          .contains("speech_server_responses_total{code=\"400\",transport=\"http\"} 1.0\n")
          .contains("speech_server_completed_total 1.0\n")
          .doesNotContain("status=");
      assertThat(s.server.metrics().responsesWithStatus(200)).isEqualTo(1);
    }
  }

  @Test
  void metrics_acceptOpenMetrics_answersOpenMetricsEndingInEof() throws Exception {
    try (TestServer s = TestServer.start(new ScriptedEngine(1, 1))) {
      s.post("{\"text\":\"one\"}");
      s.awaitIdle();

      HttpResponse<String> r =
          s.http.send(
              HttpRequest.newBuilder(s.base.resolve("/metrics"))
                  .header(
                      "Accept",
                      "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5")
                  .timeout(Duration.ofSeconds(30))
                  .build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(r.headers().firstValue("content-type").orElseThrow())
          .startsWith("application/openmetrics-text; version=1.0.0");
      assertThat(r.body())
          .endsWith("# EOF\n")
          .contains("# TYPE speech_server_responses counter\n")
          .contains("speech_server_responses_total{code=\"200\",transport=\"http\"} 1.0\n")
          .contains("# UNIT speech_server_ttfab_seconds seconds\n")
          .contains("# TYPE speech_server info\n");
    }
  }

  @Test
  void metrics_requestsHeldInTheGate_gaugesShowThemAtScrapeTime() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(2, 1);
    try (TestServer s = TestServer.start(engine, "--max-queue-depth", "2")) {
      var requests = s.streamUntilInFlight("one", "two");

      String held = s.get("/metrics").body();
      engine.allow(2);
      requests.get(0).get(30, TimeUnit.SECONDS).body().readAllBytes();
      requests.get(1).get(30, TimeUnit.SECONDS).body().readAllBytes();
      s.awaitIdle();
      String idle = s.get("/metrics").body();

      assertThat(held)
          .contains("speech_server_in_flight 2.0\n")
          .contains("speech_server_executing 1.0\n")
          .contains("speech_server_queued 1.0\n")
          .contains("speech_server_max_queue_depth 2.0\n")
          .contains("speech_server_ready 1.0\n");
      assertThat(idle)
          .contains("speech_server_in_flight 0.0\n")
          .contains("speech_server_executing 0.0\n")
          .contains("speech_server_queued 0.0\n")
          .contains("speech_server_admitted_total 2.0\n");
    }
  }
}
