package dev.speechscale.chain;

import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A qmax step with one of its optional parts (its server breakdown, its stability windows), for the
 * summaries that list only the steps carrying that part.
 *
 * @param step the step
 * @param part what it carries
 */
record StepWith<T>(QmaxStep step, T part) {
  /** The steps of {@code a} that carry {@code part}, in the artifact's order, each with it. */
  static <T> List<StepWith<T>> of(QmaxArtifact a, Function<QmaxStep, @Nullable T> part) {
    List<StepWith<T>> out = new ArrayList<>();
    for (QmaxStep s : a.steps()) {
      T p = part.apply(s);
      if (p != null) {
        out.add(new StepWith<>(s, p));
      }
    }
    return out;
  }
}
