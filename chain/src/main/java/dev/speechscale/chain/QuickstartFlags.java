package dev.speechscale.chain;

import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ReplayArtifact;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Every trust flag a quickstart raised, one line each, for its closing summary: a ladder that
 * drifted beyond tolerance, a rung that never held steady, a rung that measured more than the
 * endpoint, a replay figure the simulator missed, a replay that did not run. A summary that said
 * only {@code validate ok} while its qmax had drifted +41 % and its replay missed the shed fraction
 * by 3.5 pp told a user to trust a plan the tool itself doubted (#37).
 */
public final class QuickstartFlags {
  private QuickstartFlags() {}

  /**
   * The flags, qmax's first in the order {@link QmaxTrust} finds them, then the replay's; empty
   * when the run raised none.
   *
   * @param qmax the run's ladder
   * @param replay the run's replay, or {@code null} when it did not run
   * @param replayNotRun why the replay did not run, or {@code null}
   */
  public static List<String> lines(
      QmaxArtifact qmax, @Nullable ReplayArtifact replay, @Nullable String replayNotRun) {
    List<String> out = new ArrayList<>();
    QmaxTrust.drift(qmax).stream().filter(l -> l.startsWith("DRIFT: ")).forEach(out::add);
    QmaxTrust.stability(qmax).stream().filter(l -> l.startsWith("UNSTABLE: ")).forEach(out::add);
    if (qmax.rungChecks() != null) {
      qmax.rungChecks().stream()
          .filter(c -> c.finding() != null)
          .map(c ->
              "RUNG: " + QmaxTrust.rung(c) + " measured more than the endpoint: " + c.finding())
          .forEach(out::add);
    }
    if (replay != null) {
      replay.comparison().stream()
          .filter(r -> r.result() == ReplayArtifact.Result.MISS)
          .map(QuickstartFlags::miss)
          .forEach(out::add);
    } else if (replayNotRun != null) {
      out.add("REPLAY NOT RUN: " + replayNotRun + "; the simulator's predictions are unchecked");
    }
    return List.copyOf(out);
  }

  private static String miss(ReplayArtifact.Row r) {
    String unit = r.errorUnit() == null ? "" : " " + r.errorUnit();
    return String.format(
        Locale.ROOT,
        "REPLAY MISS: %s%s predicted %s, measured %s: off by %s%s, beyond ±%s%s",
        r.figure(),
        r.minute() == null ? "" : " (minute " + r.minute() + ")",
        number(r.predicted()),
        number(r.measured()),
        number(r.error()),
        unit,
        number(r.tolerance()),
        unit);
  }

  private static String number(@Nullable Double value) {
    return value == null ? "n/a" : String.format(Locale.ROOT, "%.1f", value);
  }
}
