package dev.speechscale.loadgen;

import java.nio.file.Path;

/**
 * One of {@code count} load processes sharing one seeded open-loop schedule: shard {@code index}
 * sends arrival {@code seq} exactly when {@code seq % count == index}. Every shard draws the whole
 * schedule from the same seed and skips the arrivals of the others, so the shards' arrivals
 * together are the single process's, each at the same offset from the schedule's start ({@link
 * ShardMerge}).
 *
 * @param index this shard, 0-based
 * @param count how many shards split the schedule
 */
public record Shard(int index, int count) {
  /** The whole schedule in one process. */
  public static final Shard WHOLE = new Shard(0, 1);

  public Shard {
    if (count < 1) {
      throw new LoadgenException(
          "shard count (" + count + ") must be at least 1; write --shard k/N with N >= 1");
    }
    if (index < 0 || index >= count) {
      throw new LoadgenException(
          "shard index ("
              + index
              + ") must be between 0 and "
              + (count - 1)
              + " for "
              + count
              + " shards; write --shard k/N with 0 <= k < N");
    }
  }

  /** Parses {@code k/N} (e.g. {@code 0/4}). */
  public static Shard parse(String text) {
    int slash = text.indexOf('/');
    if (slash < 0) {
      throw new LoadgenException(
          "--shard (" + text + ") is not k/N; write e.g. 0/4 for the first of four shards");
    }
    try {
      return new Shard(
          Integer.parseInt(text.substring(0, slash).trim()),
          Integer.parseInt(text.substring(slash + 1).trim()));
    } catch (NumberFormatException e) {
      throw new LoadgenException(
          "--shard (" + text + ") is not k/N; write e.g. 0/4 for the first of four shards", e);
    }
  }

  /** Whether arrival {@code seq} of the schedule is this shard's. */
  public boolean owns(long seq) {
    return seq % count == index;
  }

  /** Whether this is the whole schedule ({@code 0/1}). */
  public boolean whole() {
    return count == 1;
  }

  /**
   * This shard's event log, for the whole run's {@code eventLog}: the same path for the whole
   * schedule, else {@code .k-of-N} before the extension ({@code events.jsonl} → {@code
   * events.1-of-4.jsonl}), so every shard can be given the same name and the files still differ.
   */
  public Path eventLog(Path eventLog) {
    if (whole()) {
      return eventLog;
    }
    String name = eventLog.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String tag = "." + index + "-of-" + count;
    return eventLog.resolveSibling(
        dot <= 0 ? name + tag : name.substring(0, dot) + tag + name.substring(dot));
  }

  /**
   * The HdrHistogram log ({@link ShardLog}) that goes with {@code eventLog}: the extension replaced
   * by {@code .hlog} ({@code events.1-of-4.jsonl} → {@code events.1-of-4.hlog}).
   */
  public static Path histogramLog(Path eventLog) {
    String name = eventLog.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return eventLog.resolveSibling((dot <= 0 ? name : name.substring(0, dot)) + ".hlog");
  }

  /** {@code k/N}. */
  @Override
  public String toString() {
    return index + "/" + count;
  }
}
