package dev.speechscale.capacity;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One judged property of a plan.
 *
 * @param name stable identifier ({@code surge_survival}, ...)
 * @param verdict the judgement
 * @param detail the numbers behind it, in a sentence a user can check
 * @param recommendation what to change, or {@code null} when nothing needs changing
 */
public record Finding(
    String name, Verdict verdict, String detail, @Nullable String recommendation) {
  public Finding {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(detail, "detail");
  }

  static Finding ok(String name, String detail) {
    return new Finding(name, Verdict.OK, detail, null);
  }

  static Finding warn(String name, String detail, @Nullable String recommendation) {
    return new Finding(name, Verdict.WARN, detail, recommendation);
  }
}
