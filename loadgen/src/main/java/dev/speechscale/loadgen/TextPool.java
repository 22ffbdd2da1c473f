package dev.speechscale.loadgen;

import dev.speechscale.capacity.SplitMix64;
import dev.speechscale.platform.SynthesisRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The texts a run sends, shuffled once with a seed and then walked in the same order at every rung
 * (request {@code seq} gets text {@code seq mod size}), so two rungs synthesise the same texts and
 * differ only in concurrency. The shuffle is Fisher–Yates driven by {@link SplitMix64}, fully
 * specified, so a seed gives the same order on every JDK and platform (unlike {@code
 * java.util.Random}-backed {@code Collections.shuffle}, whose algorithm is not part of its
 * contract).
 */
public final class TextPool {
  private final List<String> texts;
  private final List<SynthesisRequest> requests;
  private final int[] chars;

  private TextPool(List<String> texts, @Nullable String voice, @Nullable Double speed) {
    this.texts = List.copyOf(texts);
    // one request object per text, reused at every rung: invokers cache their wire bytes by it
    this.requests =
        this.texts.stream().map(t -> new SynthesisRequest(t, voice, speed, true)).toList();
    this.chars = this.texts.stream().mapToInt(t -> t.codePointCount(0, t.length())).toArray();
  }

  /**
   * A seeded shuffle of {@code texts}.
   *
   * @param voice the voice for every request, or {@code null} for the engine's default
   * @param speed the speed for every request, or {@code null}
   * @throws LoadgenException when the pool is empty or holds a blank text
   */
  public static TextPool shuffled(
      List<String> texts, long seed, @Nullable String voice, @Nullable Double speed) {
    if (texts.isEmpty()) {
      throw new LoadgenException("the text pool is empty; give at least one text to synthesise");
    }
    for (int i = 0; i < texts.size(); i++) {
      if (texts.get(i) == null || texts.get(i).isBlank()) {
        throw new LoadgenException(
            "text " + i + " of the pool is blank; every request needs something to say");
      }
    }
    List<String> order = new ArrayList<>(texts);
    SplitMix64 rng = new SplitMix64(seed);
    for (int i = order.size() - 1; i > 0; i--) {
      Collections.swap(order, i, rng.nextInt(i + 1));
    }
    return new TextPool(order, voice, speed);
  }

  /** A seeded shuffle with the engine's default voice and speed. */
  public static TextPool shuffled(List<String> texts, long seed) {
    return shuffled(texts, seed, null, null);
  }

  /** The texts in the order they are sent. */
  public List<String> order() {
    return texts;
  }

  public int size() {
    return texts.size();
  }

  /** The streaming request for sequence number {@code seq}. */
  public SynthesisRequest request(long seq) {
    return requests.get(index(seq));
  }

  /** Characters (code points) of request {@code seq}'s text. */
  public int chars(long seq) {
    return chars[index(seq)];
  }

  private int index(long seq) {
    return (int) Math.floorMod(seq, (long) texts.size());
  }
}
