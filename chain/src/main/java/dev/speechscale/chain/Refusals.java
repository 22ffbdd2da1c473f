package dev.speechscale.chain;

import dev.speechscale.artifacts.Pairing;

/** The message a refused {@link Pairing.Result} carries, for the step that stops on it. */
final class Refusals {
  private Refusals() {}

  /**
   * Why {@code refused} was refused: a result that is not {@code ok} always names its reason.
   *
   * @throws IllegalArgumentException when {@code refused} is ok, or names no reason
   */
  static String of(Pairing.Result refused) {
    String why = refused.refusal();
    if (refused.ok() || why == null) {
      throw new IllegalArgumentException(
          "a pairing result that is ok, or refused without a reason, has no refusal to report: "
              + refused
              + "; check pair.ok() first (Pairing names the reason of every refusal)");
    }
    return why;
  }
}
