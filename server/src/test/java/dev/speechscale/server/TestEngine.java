package dev.speechscale.server;

import java.util.List;

/**
 * What every test engine says alike: its name, {@link ScriptedEngine#RATE} PCM, the one voice
 * {@code test}, how many calls it runs at once, nothing to release; a subclass writes only its
 * {@link #synthesize}.
 */
abstract class TestEngine implements SpeechEngine {
  private final String name;
  private final int concurrency;

  TestEngine(String name, int concurrency) {
    this.name = name;
    this.concurrency = concurrency;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final int sampleRateHz() {
    return ScriptedEngine.RATE;
  }

  @Override
  public final List<String> voices() {
    return List.of("test");
  }

  @Override
  public final String defaultVoice() {
    return "test";
  }

  @Override
  public final int maxConcurrency() {
    return concurrency;
  }

  @Override
  public void close() {}
}
