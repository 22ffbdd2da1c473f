package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.loadgen.FakeTtsServer.Reply;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Transport;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four shards of one seeded Poisson schedule, each run on its own driver against a loopback server,
 * merge into exactly the arrivals (count, seq, phase, intended offset) of one process running the
 * whole schedule. Latencies are not compared: they differ as runs do. The bound is small so some
 * arrivals are dropped: a drop is still an arrival.
 */
class ShardMergeTest {
  private static final TextPool TEXTS = TextPool.shuffled(List.of("one", "two", "three"), 1);
  private static final OpenLoopSpec SPEC =
      new OpenLoopSpec(
          List.of(
              new OpenLoopSpec.Phase("baseline", 150, Duration.ofMillis(200)),
              new OpenLoopSpec.Phase("surge", 450, Duration.ofMillis(200))),
          OpenLoopSpec.Arrivals.POISSON,
          4,
          11,
          Duration.ofMillis(5));

  /** 50 ms at 100 requests/s: a few arrivals. */
  private static final OpenLoopSpec SHORT =
      OpenLoopSpec.constant(100, Duration.ofMillis(50), OpenLoopSpec.Arrivals.POISSON, 8, 3);

  @Test
  void merge_fourShards_arrivalsEqualOneProcess(@TempDir Path dir) throws Exception {
    try (FakeTtsServer server =
            new FakeTtsServer(8, Duration.ofMillis(2), Duration.ofMillis(2), n -> Reply.OK);
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri())) {
      OpenLoopResult single = runShard(invoker, Shard.WHOLE, dir.resolve("single"));
      List<Path> hlogs = new ArrayList<>();
      List<Path> events = new ArrayList<>();
      long shardIntended = 0;
      for (int k = 3; k >= 0; k--) { // any order
        Path d = dir.resolve("shard-" + k);
        OpenLoopResult r = runShard(invoker, new Shard(k, 4), d);
        shardIntended += r.phases().stream().mapToLong(OpenLoopResult.PhaseResult::intended).sum();
        hlogs.add(d.resolve("run.hlog"));
        events.add(d.resolve("events.jsonl"));
      }

      ShardMerge merged = ShardMerge.read(hlogs, events);
      List<ShardMerge.Arrival> expected =
          ShardMerge.arrivals(dir.resolve("single").resolve("events.jsonl"));

      long singleIntended =
          single.phases().stream().mapToLong(OpenLoopResult.PhaseResult::intended).sum();
      assertThat(expected).hasSize((int) singleIntended);
      assertThat(singleIntended).isGreaterThan(50);
      assertThat(merged.arrivals()).isEqualTo(expected);
      assertThat(shardIntended).isEqualTo(singleIntended);
      assertThat(merged.count()).isEqualTo(4);
      for (int p = 0; p < 2; p++) {
        assertThat(merged.histogram("p" + p + ".arrivals").getTotalCount())
            .isEqualTo(single.phases().get(p).intended());
      }
      merged.write(dir.resolve("merged.hlog"), dir.resolve("merged.jsonl"));
      assertThat(ShardMerge.arrivals(dir.resolve("merged.jsonl"))).isEqualTo(expected);
    }
  }

  @Test
  void read_missingOrRepeatedShard_namesTheProblem(@TempDir Path dir) throws Exception {
    try (FakeTtsServer server = FakeTtsServer.fast();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri())) {
      Path a = dir.resolve("a");
      Path b = dir.resolve("b");
      runShard(invoker, SHORT, new Shard(0, 2), a);
      runShard(invoker, SHORT, new Shard(1, 2), b);

      assertThatThrownBy(() ->
              ShardMerge.read(List.of(a.resolve("run.hlog")), List.of(a.resolve("events.jsonl"))))
          .isInstanceOf(LoadgenException.class)
          .hasMessageContaining("2 shards but 1 were given");
      assertThatThrownBy(() ->
              ShardMerge.read(
                  List.of(a.resolve("run.hlog"), a.resolve("run.hlog")),
                  List.of(a.resolve("events.jsonl"), b.resolve("events.jsonl"))))
          .isInstanceOf(LoadgenException.class)
          .hasMessageContaining("shard 0/2 is given twice");
    }
  }

  @Test
  void complete_onlyWhenTheHistogramLogCountsTheEventLogsLines(@TempDir Path dir) throws Exception {
    try (FakeTtsServer server = FakeTtsServer.fast();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri())) {
      Path d = dir.resolve("s");
      OpenLoopResult r = runShard(invoker, SHORT, new Shard(1, 2), d);
      Path hlog = d.resolve("run.hlog");
      Path events = d.resolve("events.jsonl");
      assertThat(ShardMerge.complete(hlog, events)).isTrue();
      assertThat(ShardMerge.complete(d.resolve("absent.hlog"), events)).isFalse();

      List<String> lines = java.nio.file.Files.readAllLines(events);
      assertThat(lines).hasSize((int) r.phases().getFirst().intended()).hasSizeGreaterThan(1);
      java.nio.file.Files.write(events, lines.subList(0, lines.size() - 1)); // still copying
      assertThat(ShardMerge.complete(hlog, events)).isFalse();
      String whole = String.join("\n", lines) + "\n";
      java.nio.file.Files.writeString(events, whole.substring(0, whole.length() - 5)); // mid-line
      assertThat(ShardMerge.complete(hlog, events)).isFalse();
      java.nio.file.Files.write(events, lines);
      byte[] h = java.nio.file.Files.readAllBytes(hlog);
      java.nio.file.Files.write(hlog, java.util.Arrays.copyOf(h, h.length / 2));
      assertThat(ShardMerge.complete(hlog, events)).isFalse();
    }
  }

  @Test
  void answers_sayHowEachArrivalEnded(@TempDir Path dir) throws Exception {
    try (FakeTtsServer server = FakeTtsServer.fast();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri())) {
      runShard(invoker, SHORT, Shard.WHOLE, dir.resolve("w"));
      ShardMerge m =
          ShardMerge.read(
              List.of(dir.resolve("w").resolve("run.hlog")),
              List.of(dir.resolve("w").resolve("events.jsonl")));
      assertThat(m.answers()).hasSameSizeAs(m.arrivals()).isNotEmpty();
      assertThat(m.answers())
          .allSatisfy(a -> {
            assertThat(a.outcome()).isEqualTo("OK");
            assertThat(a.ttfabMs()).isNotNull().isPositive();
            assertThat(a.sendLagMs()).isNotNull();
          });
    }
  }

  @Test
  void eventLog_ofAShard_carriesItsPlaceInTheName() {
    Path events = Path.of("logs", "events.jsonl");
    assertThat(Shard.WHOLE.eventLog(events)).isEqualTo(events);
    assertThat(new Shard(1, 4).eventLog(events)).isEqualTo(Path.of("logs", "events.1-of-4.jsonl"));
    assertThat(new Shard(0, 2).eventLog(Path.of("log"))).isEqualTo(Path.of("log.0-of-2"));
    assertThat(Shard.histogramLog(Path.of("logs", "events.1-of-4.jsonl")))
        .isEqualTo(Path.of("logs", "events.1-of-4.hlog"));
  }

  @Test
  void parse_badShard_namesTheValueAndTheForm() {
    assertThat(Shard.parse("2/4")).isEqualTo(new Shard(2, 4));
    assertThatThrownBy(() -> Shard.parse("4/4"))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("shard index (4)")
        .hasMessageContaining("0 <= k < N");
    assertThatThrownBy(() -> Shard.parse("two"))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("--shard (two) is not k/N");
  }

  private static OpenLoopResult runShard(Invoker invoker, Shard shard, Path dir) {
    return runShard(invoker, SPEC, shard, dir);
  }

  private static OpenLoopResult runShard(
      Invoker invoker, OpenLoopSpec spec, Shard shard, Path dir) {
    ShardLog hlog = new ShardLog(shard);
    try (JsonlEventLog events =
            JsonlEventLog.open(dir.resolve("events.jsonl"), NanoClock.SYSTEM, Clock.systemUTC());
        OpenLoopDriver driver =
            new OpenLoopDriver(
                invoker, TEXTS, NanoClock.SYSTEM, RequestListener.both(events, hlog))) {
      OpenLoopResult result = driver.run(spec, shard);
      hlog.write(dir.resolve("run.hlog"), spec, result);
      return result;
    }
  }
}
