package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.chain.Replay;
import dev.speechscale.platform.Transport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * How {@code replay}'s live half runs: arrivals, sampling, transport, texts, its request log.
 * Option help: {@code flags.properties}.
 */
final class ReplayLiveOptions {
  @Option(names = Flags.SEED, defaultValue = "1", paramLabel = "N")
  long seed;

  @Option(names = Flags.METRIC_DELAY, paramLabel = "DURATION")
  @Nullable Duration metricDelay;

  @Option(names = Flags.SAMPLE_EVERY, defaultValue = "200ms", paramLabel = "DURATION")
  Duration sampleEvery;

  @Option(names = Flags.NO_ALIGN)
  boolean noAlign;

  @Option(names = Flags.TRANSPORT, paramLabel = "http-stream|response-stream|bidi")
  @Nullable String transport;

  @Mixin TextsOption texts;

  @Option(names = Flags.EVENTS, paramLabel = "FILE")
  @Nullable Path events;

  /** The live half, with {@code warmup} before the trace. */
  Replay.Live live(Transport t, Duration warmup) {
    return new Replay.Live(t, texts.file, sampleEvery, !noAlign, events, warmup);
  }

  /** The options as the artifact's parameters record them, the simulated metric delay resolved. */
  void record(Map<String, Object> params, Duration delay) {
    params.put("seed", seed);
    params.put("metric_delay_s", delay.toMillis() / 1000.0);
    params.put("sample_every_s", sampleEvery.toMillis() / 1000.0);
    params.put("align", !noAlign);
  }
}
