package dev.speechscale.server;

import java.util.List;

/**
 * The engine SPI: a text-to-speech engine that produces 16-bit mono PCM in chunks.
 *
 * <p>Contract, checked for every engine by one contract test suite:
 *
 * <ul>
 *   <li>{@link #synthesize} delivers audio to the sink in order as it is produced, in chunks of at
 *       least one sample, at {@link #sampleRateHz()}; it returns when the text is done.
 *   <li>Cancellation is cooperative at chunk boundaries: when the sink returns {@code false} the
 *       engine stops producing and returns promptly without calling the sink again.
 *   <li>At most {@link #maxConcurrency()} calls run at once; the server guarantees this with its
 *       admission gate and a bounded engine executor (native engines pin their thread).
 *   <li>Unknown voices are refused by the server before {@link #synthesize} is called; an engine
 *       may still throw {@link EngineException} for a voice it cannot load.
 * </ul>
 */
public interface SpeechEngine extends AutoCloseable {

  /** Short engine name as used on the command line ({@code flite}, {@code espeak}, ...). */
  String name();

  /** The rate of the PCM this engine produces. */
  int sampleRateHz();

  /** Voices accepted in the request's {@code voice} field. */
  List<String> voices();

  /** The voice used when a request names none. */
  String defaultVoice();

  /**
   * How many {@link #synthesize} calls may run at once: 1 unless the engine is reentrant and says
   * so.
   */
  default int maxConcurrency() {
    return 1;
  }

  /**
   * Synthesizes one segment of text.
   *
   * @param speed speaking-rate multiplier, already validated by the server (1.0 = normal)
   * @throws EngineException when the engine fails; audio already delivered stays delivered
   */
  void synthesize(String text, String voice, double speed, PcmSink sink);

  /** Releases native resources; no call may be running. */
  @Override
  void close();
}
