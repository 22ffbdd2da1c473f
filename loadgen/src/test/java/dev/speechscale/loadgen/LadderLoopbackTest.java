package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.Histograms;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.Stamp;
import dev.speechscale.loadgen.FakeTtsServer.Reply;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The whole ladder over loopback with tiny durations: proves the pipeline, not numbers. */
class LadderLoopbackTest {
  private static final LadderSpec TWO_RUNGS =
      LadderSpec.of(List.of(1, 2), Duration.ofMillis(200), Duration.ofMillis(100), 1, 3000)
          .withRefine(false)
          // 100 ms windows on a shared machine drift by chance; a rewarm would measure the rungs
          // again and replace the reports these tests look at (LadderRewarmTest covers it)
          .withDrift(DriftRecheck.DEFAULT.withRewarmBudget(Duration.ZERO));

  @Test
  void run_twoRungs_stepsWithHistogramsAndAValidArtifact(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("events.jsonl");
    try (FakeTtsServer server =
            new FakeTtsServer(1, Duration.ofMillis(2), Duration.ofMillis(2), n -> Reply.OK);
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri());
        JsonlEventLog events = JsonlEventLog.open(log, NanoClock.SYSTEM, Clock.systemUTC())) {
      LadderHooks hooks =
          LadderHooks.defaults()
              .withRequests(events)
              .withServerConcurrency(
                  (start, end) -> Optional.of(new LadderHooks.ServerConcurrency(2, 1.5)));
      LadderResult result =
          new LadderRunner(invoker, TextPool.shuffled(List.of("a b", "c d e"), 9), hooks)
              .run(TWO_RUNGS);

      assertThat(result.reports()).extracting(RungReport::concurrency).containsExactly(1, 2);
      List<QmaxStep> steps = result.steps();
      for (QmaxStep step : steps) {
        assertThat(step.ok()).isPositive();
        assertThat(step.ttfabP95Ms()).isPositive();
        assertThat(Histograms.decode(step.ttfabHistogram()).getTotalCount()).isEqualTo(step.ok());
        assertThat(Histograms.decode(step.latencyHistogram()).getTotalCount()).isEqualTo(step.ok());
        assertThat(step.serverConcurrencyPeak()).isEqualTo(2.0);
        assertThat(step.chars()).isPositive();
        // the fake server's headers: engine 2 ms exactly; audio 3 chunks of 480 bytes at 48000 B/s
        assertThat(step.breakdown()).isNotNull();
        assertThat(step.breakdown().engineFirstChunkP50Ms()).isEqualTo(2.0);
        assertThat(step.breakdown().engineFirstChunkP95Ms()).isEqualTo(2.0);
        assertThat(step.breakdown().queueWaitP50Ms()).isNotNegative();
        assertThat(step.breakdown().timedRequests()).isEqualTo(step.ok());
        assertThat(step.breakdown().audioMeanS()).isCloseTo(0.03, within(1e-12));
      }
      RungReport first = result.reports().get(0);
      assertThat(Duration.between(first.windowStart(), first.windowEnd()))
          .isEqualTo(Duration.ofMillis(100));

      String json = ArtifactCodec.toJson(artifact(steps));
      assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, json)).isEmpty();
      events.flush();
      try (var lines = Files.lines(log)) {
        assertThat(lines.count()).isEqualTo(server.requests());
      }
      assertThat(Files.readAllLines(log))
          .allSatisfy(line ->
              assertThat(line)
                  .contains("\"engine_first_chunk_ms\":2.000,")
                  .containsPattern("\"queue_wait_ms\":\\d+\\.\\d{3},")
                  .endsWith(
                      ",\"audio_s\":0.0300,\"instance\":\"" + FakeTtsServer.INSTANCE + "\"}"));
    }
  }

  @Test
  void run_warmup_reachesTheServerButNoStepAndNoEvent(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("events.jsonl");
    try (FakeTtsServer server = FakeTtsServer.fast();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri());
        JsonlEventLog events = JsonlEventLog.open(log, NanoClock.SYSTEM, Clock.systemUTC())) {
      LadderResult result =
          new LadderRunner(
                  invoker,
                  TextPool.shuffled(List.of("hello"), 1),
                  LadderHooks.defaults().withRequests(events))
              .run(TWO_RUNGS.withWarmup(Duration.ofMillis(200)));

      events.flush();
      long logged;
      try (var lines = Files.lines(log)) {
        logged = lines.count();
      }
      assertThat(result.reports()).extracting(RungReport::concurrency).containsExactly(1, 2);
      assertThat(logged).isPositive();
      assertThat(server.requests()).isGreaterThan(logged); // the warm-up's went unrecorded
    }
  }

  @Test
  void run_instanceCountChanges_rungIsUnusable() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    try (FakeTtsServer server = FakeTtsServer.fast();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri())) {
      LadderHooks hooks =
          LadderHooks.defaults().withCapacity(() -> calls.getAndIncrement() == 0 ? 1 : 2);
      LadderResult result =
          new LadderRunner(invoker, TextPool.shuffled(List.of("hello"), 1), hooks).run(TWO_RUNGS);

      RungReport first = result.reports().get(0);
      assertThat(first.verdict()).isInstanceOf(RungVerdict.CapacityChanged.class);
      assertThat(first.instanceCounts()).containsExactly(1, 2);
      assertThat(result.steps().get(0).unusableReason()).contains("capacity changed");
      assertThat(result.reports().get(1).instanceCounts()).containsExactly(2);
    }
  }

  @Test
  void run_failingProbeAndMetrics_becomeNotesNotFailures() throws Exception {
    StringBuilder notes = new StringBuilder();
    try (FakeTtsServer server = FakeTtsServer.fast();
        Invoker invoker = Targets.invoker(Transport.BIDI, server.baseUri())) {
      LadderHooks hooks =
          LadderHooks.defaults()
              .withCapacity(() -> {
                throw new IllegalStateException("describe throttled");
              })
              .withServerConcurrency((s, e) -> {
                throw new IllegalStateException("no metric store");
              })
              .withListener(
                  new LadderListener() {
                    @Override
                    public synchronized void note(String message) {
                      notes.append(message).append('\n');
                    }
                  });
      LadderResult result =
          new LadderRunner(invoker, TextPool.shuffled(List.of("hello"), 1), hooks)
              .run(TWO_RUNGS.withRefine(false));

      assertThat(result.reports()).hasSize(2);
      assertThat(result.steps().get(0).serverConcurrencyPeak()).isNull();
      synchronized (notes) {
        assertThat(notes.toString()).contains("describe throttled", "no metric store");
      }
    }
  }

  private static QmaxArtifact artifact(List<QmaxStep> steps) {
    return QmaxArtifact.of(
        new Stamp(
            "test", Instant.parse("2026-01-01T00:00:00Z"), Provenance.capture("test", Map.of())),
        new QmaxArtifact.Target(
            "fake",
            "fake-endpoint",
            Transport.HTTP_STREAM.label(),
            3000,
            new DeployedConfig("local.1cpu", null, Map.of())),
        new QmaxArtifact.Conditions("local", 1, 0.2, 0.1, true),
        steps);
  }

  /** Parses one JSONL line; used by the event-log test too. */
  static JsonNode parse(String line) {
    return JsonMapper.builder().build().readTree(line);
  }
}
