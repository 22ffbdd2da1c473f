package dev.speechscale.chain;

import dev.speechscale.loadgen.LoadgenException;
import dev.speechscale.loadgen.Shard;
import dev.speechscale.loadgen.ShardMerge;
import dev.speechscale.platform.Invocation;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Shard 0's last step in a replay split across load processes ({@link Replay.Sharding}): waits for
 * every other shard's event log and HdrHistogram log beside its own, merges them ({@link
 * ShardMerge}) into the event log and histogram log one process would have written, and gives the
 * live replay every arrival of the trace.
 */
final class ReplayShards {
  private ReplayShards() {}

  /**
   * The live replay of the whole trace: {@code own}'s origin and fleet samples (shard 0 alone reads
   * the fleet), the requests of every shard.
   *
   * @param events the event log every shard was given ({@code --events})
   * @throws ChainException when a shard's logs do not arrive within {@code sharding.mergeWait()} or
   *     do not belong to this run
   */
  static LiveReplay merge(
      LiveReplay own,
      Path events,
      Replay.Sharding sharding,
      Clock clock,
      Consumer<String> progress) {
    int count = sharding.shard().count();
    List<Path> eventLogs = new ArrayList<>();
    List<Path> hlogs = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      Path log = new Shard(k, count).eventLog(events);
      eventLogs.add(log);
      hlogs.add(Shard.histogramLog(log));
    }
    waitForShards(hlogs, eventLogs, sharding.mergeWait(), clock, progress);
    ShardMerge merged;
    try {
      merged = ShardMerge.read(hlogs, eventLogs);
      merged.write(Shard.histogramLog(events), events);
    } catch (LoadgenException e) {
      throw ChainException.wrapping(e);
    }
    progress.accept(
        "replay: merged "
            + count
            + " shards' "
            + merged.arrivals().size()
            + " arrivals into "
            + events
            + " and "
            + Shard.histogramLog(events));
    return new LiveReplay(
        own.origin(), own.schedule(), requests(merged), own.samples(), late(merged), own.warmup());
  }

  /** Every merged arrival as a replay request, timed from the schedule's start. */
  static List<LiveReplay.Request> requests(ShardMerge merged) {
    List<LiveReplay.Request> out = new ArrayList<>();
    for (int i = 0; i < merged.arrivals().size(); i++) {
      ShardMerge.Answer a = merged.answers().get(i);
      LiveReplay.Status status = status(a.outcome());
      out.add(
          new LiveReplay.Request(
              merged.arrivals().get(i).offsetNanos() / 1e9,
              status == LiveReplay.Status.OK ? a.ttfabMs() : null,
              status));
    }
    return out;
  }

  /** Requests sent more than the driver's late threshold (5 ms) after their intended time. */
  private static long late(ShardMerge merged) {
    return merged.answers().stream()
        .filter(a -> a.sendLagMs() != null && a.sendLagMs() > 5)
        .count();
  }

  /** An event-log line's outcome: a driver's drop, else as {@link LiveReplay} counts a request. */
  private static LiveReplay.Status status(String outcome) {
    if (outcome.equals("DROPPED")) {
      return LiveReplay.Status.DROPPED;
    }
    try {
      return LiveReplay.status(Invocation.Outcome.valueOf(outcome));
    } catch (IllegalArgumentException e) {
      throw new ChainException(
          "a shard's event log has outcome '"
              + outcome
              + "', which this version does not know; merge logs written by the same version");
    }
  }

  private static void waitForShards(
      List<Path> hlogs,
      List<Path> eventLogs,
      Duration wait,
      Clock clock,
      Consumer<String> progress) {
    long deadline = clock.millis() + wait.toMillis();
    List<Integer> missing =
        missing(
            java.util.stream.IntStream.range(0, hlogs.size()).boxed().toList(), hlogs, eventLogs);
    if (!missing.isEmpty()) {
      progress.accept(
          "replay: waiting up to "
              + Args.duration(wait)
              + " for shards "
              + missing
              + "' logs beside "
              + eventLogs.getFirst()
              + " ("
              + eventLogs.get(missing.getFirst()).getFileName()
              + " and "
              + hlogs.get(missing.getFirst()).getFileName()
              + ", ...)");
    }
    while (!missing.isEmpty()) {
      if (clock.millis() >= deadline) {
        throw new ChainException(
            "shards "
                + missing
                + " of "
                + hlogs.size()
                + " did not finish their logs within "
                + Flags.SHARD_WAIT
                + " "
                + Args.duration(wait)
                + ": expected "
                + eventLogs.get(missing.getFirst())
                + " and "
                + hlogs.get(missing.getFirst())
                + " (the histogram log last, its arrivals matching the event log's lines); run"
                + " those shards with the same "
                + Flags.EVENTS
                + " and "
                + Flags.START_AT
                + " and copy their two files here, or give a longer "
                + Flags.SHARD_WAIT);
      }
      Sleeper.sleep(Duration.ofSeconds(1));
      missing = missing(missing, hlogs, eventLogs);
    }
  }

  /** Which of {@code shards} have not finished both logs (a finished shard is not read again). */
  private static List<Integer> missing(
      List<Integer> shards, List<Path> hlogs, List<Path> eventLogs) {
    List<Integer> out = new ArrayList<>();
    for (int k : shards) {
      if (!ShardMerge.complete(hlogs.get(k), eventLogs.get(k))) {
        out.add(k);
      }
    }
    return out;
  }
}
