package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.chain.Replay;
import dev.speechscale.loadgen.LoadgenException;
import dev.speechscale.loadgen.Shard;
import dev.speechscale.platform.Transport;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * How {@code replay}'s live half runs: arrivals, sampling, transport, texts, its request log.
 * Option help: {@code flags.properties}.
 */
final class ReplayLiveOptions {
  @Mixin SeedOption seed;

  @Mixin MetricDelayOption metricDelay;

  @Option(names = Flags.SAMPLE_EVERY, defaultValue = "200ms", paramLabel = "DURATION")
  Duration sampleEvery;

  @Option(names = Flags.NO_ALIGN)
  boolean noAlign;

  @Mixin TransportOption transport;

  @Mixin TextsOption texts;

  @Mixin EventsOption events;

  @Option(
      names = Flags.SHARD,
      defaultValue = "0/1",
      paramLabel = "K/N",
      converter = ShardConverter.class)
  Shard shard;

  @Option(names = Flags.START_AT, paramLabel = "INSTANT", converter = InstantConverter.class)
  @Nullable Instant startAt;

  @Option(names = Flags.SHARD_WAIT, defaultValue = "10m", paramLabel = "DURATION")
  Duration shardWait;

  /** The live half, with {@code warmup} before the trace. */
  Replay.Live live(Transport t, Duration warmup) {
    return new Replay.Live(
        t,
        texts.file,
        sampleEvery,
        !noAlign,
        events.file,
        warmup,
        new Replay.Sharding(shard, startAt, shardWait));
  }

  /** {@code k/N}, with {@link Shard#parse}'s error. */
  static final class ShardConverter implements CommandLine.ITypeConverter<Shard> {
    @Override
    public Shard convert(String value) {
      try {
        return Shard.parse(value);
      } catch (LoadgenException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  /** An ISO-8601 UTC instant. */
  static final class InstantConverter implements CommandLine.ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
      try {
        return Instant.parse(value);
      } catch (DateTimeParseException e) {
        throw new CommandLine.TypeConversionException(
            Flags.START_AT
                + " ("
                + value
                + ") is not a UTC instant; write e.g. 2026-12-08T10:00:00Z, the same for every"
                + " shard");
      }
    }
  }

  /** The options as the artifact's parameters record them, the simulated metric delay resolved. */
  void record(Map<String, Object> params, Duration delay) {
    params.put("seed", seed.value);
    params.put("metric_delay_s", delay.toMillis() / 1000.0);
    params.put("sample_every_s", sampleEvery.toMillis() / 1000.0);
    params.put("align", !noAlign);
  }
}
