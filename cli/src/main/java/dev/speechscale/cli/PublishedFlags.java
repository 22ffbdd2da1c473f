package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The published tool's flags, command by command, and what each means here: the same flag, an alias
 * of ours, a flag accepted because we always do what it asks, or a one-line error naming our flag.
 * One table, so the seeds' command lines and the published {@code --help} output work or fail with
 * a pointer, and {@code docs/published-flags.md} is checked against it.
 *
 * <p>{@link PublishedFlagOptions} registers the table's aliases and refusals on the commands.
 */
final class PublishedFlags {
  private PublishedFlags() {}

  /** How a published flag's value becomes ours. */
  enum Conversion {
    /** The same type and unit as ours. */
    AS_IS,
    /** A bare number of seconds (or any duration with its unit). */
    SECONDS,
    /** A bare number of milliseconds. */
    MILLIS
  }

  /** What a published flag is here. */
  enum Kind {
    /** Our flag has the published name; nothing to register. */
    SAME,
    /** Our flag has the published name but means something else: the note says what. */
    DIFFERS,
    /** Forwarded to our flag. */
    ALIAS,
    /** Accepted and ignored: we always do what it asks. */
    ALWAYS,
    /** Refused with one line naming what to use instead. */
    REFUSED
  }

  /**
   * One published flag.
   *
   * @param command our command path, e.g. {@code tts-bench qmax}
   * @param published the published flag
   * @param kind what it is here
   * @param ours our flag it maps to, or {@code null}
   * @param conversion how its value converts (ALIAS only)
   * @param arity 0 for a switch, 1 for a flag with a value (REFUSED and ALWAYS)
   * @param note the one line a user reads: why, or what to use
   */
  record Flag(
      String command,
      String published,
      Kind kind,
      @Nullable String ours,
      Conversion conversion,
      int arity,
      String note) {}

  private static Flag same(String command, String flag, String note) {
    return new Flag(command, flag, Kind.SAME, flag, Conversion.AS_IS, 1, note);
  }

  private static Flag alias(String command, String published, String ours, Conversion c) {
    return new Flag(command, published, Kind.ALIAS, ours, c, 1, "alias of " + ours);
  }

  private static Flag always(String command, String flag, String note) {
    return new Flag(command, flag, Kind.ALWAYS, null, Conversion.AS_IS, 0, note);
  }

  private static Flag refused(
      String command, String flag, int arity, @Nullable String ours, String note) {
    return new Flag(command, flag, Kind.REFUSED, ours, Conversion.AS_IS, arity, note);
  }

  /** The one published {@code ttotal --trigger} value (drive-load was removed upstream too). */
  static final String ONLY_TRIGGER = "force-desired";

  static final String QMAX = "tts-bench qmax";
  static final String TTOTAL = "tts-bench ttotal";
  static final String PLAN = "tts-bench plan";
  static final String DRIFT = "tts-bench drift";
  static final String THAW = "tts-bench thaw";
  static final String VALIDATE = "tts-bench validate";
  static final String DEPLOY = "speech-infra deploy";
  static final String DESTROY = "speech-infra destroy";

  private static final String VARIANT =
      "SpeechScale reads the endpoint's one production variant; drop --variant";
  private static final String VOICE =
      "requests use the engine's default voice, which the endpoint config's engine settings choose;"
          + " drop --voice";
  private static final String SAMPLES =
      "use --texts FILE: one request text per line (the published JSON sample file is not read)";
  private static final String NO_SAVE =
      "the artifact is always written; --output FILE chooses where";

  /** Every published flag of the commands the seeds run, in the order of the published CLI. */
  static final List<Flag> ALL =
      List.of(
          same(QMAX, Flags.MODEL, "the endpoint is speech-<NAME>"),
          same(QMAX, Flags.REGION, "aws region"),
          refused(QMAX, Flags.VARIANT, 1, null, VARIANT),
          refused(QMAX, Flags.VOICE, 1, null, VOICE),
          alias(QMAX, Flags.CONCURRENCY, Flags.RUNGS, Conversion.AS_IS),
          alias(QMAX, Flags.SLO_MS, Flags.SLO, Conversion.MILLIS),
          same(QMAX, Flags.HOLD, "also takes a bare number of seconds, as published"),
          alias(QMAX, Flags.MEASURE_WINDOW, Flags.WINDOW, Conversion.SECONDS),
          alias(QMAX, Flags.SETTLE_BETWEEN_STEPS, Flags.SETTLE, Conversion.SECONDS),
          same(QMAX, Flags.RUNS, "passes of the ladder"),
          same(QMAX, Flags.TRANSPORT, "response-stream, bidi (and http-stream locally)"),
          same(QMAX, Flags.SEED, "text shuffle seed"),
          refused(QMAX, Flags.MAX_SAMPLES, 1, Flags.TEXTS, SAMPLES),
          refused(QMAX, Flags.SAMPLES, 1, Flags.TEXTS, SAMPLES),
          always(QMAX, Flags.REQUIRE_FROZEN, "qmax always freezes scaling and pins capacity to 1"),
          refused(
              QMAX,
              Flags.NO_REQUIRE_FROZEN,
              0,
              null,
              "qmax always freezes scaling and pins capacity to 1: Q_max is a per-instance number"),
          always(QMAX, Flags.REQUIRE_UNBOUNDED_QUEUE, "qmax always refuses a bounded queue"),
          refused(
              QMAX,
              Flags.NO_REQUIRE_UNBOUNDED_QUEUE,
              0,
              null,
              "qmax always refuses a bounded container queue (it would measure MAX_QUEUE_DEPTH);"
                  + " deploy with queue_max_depth 0 to measure"),
          refused(
              QMAX,
              Flags.PIN_TO,
              1,
              null,
              "qmax pins capacity to 1: Q_max is one instance's ceiling"),
          always(QMAX, Flags.CLOUDWATCH, "the server-concurrency join always runs"),
          refused(
              QMAX,
              Flags.NO_CLOUDWATCH,
              0,
              null,
              "the server-concurrency join always runs: without it plan has no units conversion"),
          same(QMAX, Flags.OUTPUT, "artifact path"),
          refused(QMAX, Flags.NO_SAVE, 0, Flags.OUTPUT, NO_SAVE),
          same(QMAX, Flags.EVENTS, "per-request JSON lines"),
          same(QMAX, Flags.DRY_RUN, "schedule and total, no endpoint calls"),
          alias(QMAX, Flags.DRY_RUN_S, Flags.ASSUME_SERVICE_TIME, Conversion.SECONDS),
          same(TTOTAL, Flags.MODEL, "the endpoint is speech-<NAME>"),
          same(TTOTAL, Flags.QMAX, "the ladder"),
          same(TTOTAL, Flags.REGION, "aws region"),
          refused(TTOTAL, Flags.VARIANT, 1, null, VARIANT),
          refused(TTOTAL, Flags.VOICE, 1, null, VOICE),
          new Flag(
              TTOTAL,
              Flags.TRIGGER,
              Kind.ALWAYS,
              null,
              Conversion.AS_IS,
              1,
              "force-desired is the only trigger, as published"),
          same(TTOTAL, Flags.PROBE_CONCURRENCY, "the probe's N"),
          alias(TTOTAL, Flags.WARMUP, Flags.SETTLE, Conversion.SECONDS),
          same(TTOTAL, Flags.ALLOW_CONFIG_MISMATCH, "warn instead of refusing"),
          alias(TTOTAL, Flags.MAX_WAIT, Flags.TIMEOUT, Conversion.SECONDS),
          new Flag(
              TTOTAL,
              Flags.SETTLE,
              Kind.DIFFERS,
              Flags.RECOVERY_WINDOW,
              Conversion.AS_IS,
              1,
              "same name, other meaning: here --settle is the probe before the trigger (the"
                  + " published --warmup); the hold past the event is --recovery-window"),
          refused(
              TTOTAL,
              Flags.POLL_INTERVAL,
              1,
              null,
              "the polling interval follows the platform's API limits; drop --poll-interval"),
          same(TTOTAL, Flags.TRANSPORT, "must match the ladder's"),
          refused(
              TTOTAL, Flags.SEED, 1, Flags.TEXTS, "the probe walks --texts in order; drop --seed"),
          refused(TTOTAL, Flags.MAX_SAMPLES, 1, Flags.TEXTS, SAMPLES),
          refused(TTOTAL, Flags.SAMPLES, 1, Flags.TEXTS, SAMPLES),
          same(TTOTAL, Flags.OUTPUT, "artifact path"),
          refused(TTOTAL, Flags.NO_SAVE, 0, Flags.OUTPUT, NO_SAVE),
          refused(TTOTAL, Flags.EVENTS, 1, null, "ttotal writes no event log; qmax --events does"),
          same(PLAN, Flags.QMAX, "the ladder"),
          same(PLAN, Flags.TTOTAL, "the scale-out"),
          same(PLAN, Flags.PEAK_RPS, "peak load"),
          same(PLAN, Flags.TROUGH_RPS, "trough load"),
          same(PLAN, Flags.PEAK_STREAMS, "peak concurrent sessions"),
          same(PLAN, Flags.TROUGH_STREAMS, "trough concurrent sessions"),
          alias(PLAN, Flags.MAX_SCALING_PER_T_TOTAL, Flags.SURGE_RATIO, Conversion.AS_IS),
          alias(PLAN, Flags.TTFAB_SLO_MS, Flags.SLO, Conversion.MILLIS),
          same(PLAN, Flags.MIN_FLOOR, "fewest instances"),
          same(PLAN, Flags.ASSUME_T_TOTAL, "also takes a bare number of seconds, as published"),
          same(PLAN, Flags.ALLOW_CONFIG_MISMATCH, "warn instead of refusing"),
          alias(PLAN, Flags.CEILING_S, Flags.CEILING, Conversion.SECONDS),
          same(PLAN, Flags.OUTPUT, "plan path"),
          same(DRIFT, Flags.REGION, "aws region"),
          same(DRIFT, Flags.OUTPUT, "the drift artifact (with --model)"),
          always(DRIFT, Flags.FAIL_ON_ERROR, "drift always exits 1 on an error"),
          refused(
              DRIFT,
              Flags.NO_FAIL_ON_ERROR,
              0,
              null,
              "drift always exits 1 on an error; read --json instead of the exit code"),
          same(THAW, Flags.ENDPOINT, "speech-<NAME>, the same as --model NAME"),
          refused(THAW, Flags.VARIANT, 1, null, VARIANT),
          same(THAW, Flags.REGION, "aws region"),
          always(THAW, Flags.RESTORE_CAPACITY, Flags.DESIRED + " N restores capacity on its own"),
          always(THAW, Flags.NO_RESTORE_CAPACITY, "capacity is restored only with --desired N"),
          same(THAW, Flags.DESIRED, "desired capacity to restore"),
          same(VALIDATE, Flags.MODEL, "the endpoint is speech-<NAME>"),
          same(VALIDATE, Flags.PLAN, "the plan"),
          same(VALIDATE, Flags.TRANSPORT, "of the live checks"),
          same(VALIDATE, Flags.REGION, "aws region"),
          refused(VALIDATE, Flags.VOICE, 1, null, VOICE),
          refused(
              VALIDATE,
              Flags.SURGE_RATIO,
              1,
              Flags.PLAN,
              "the surge ratio is the --plan's (plan --surge-ratio); re-plan to change it"),
          refused(
              VALIDATE,
              Flags.DRY_RUN,
              0,
              Flags.LIVE,
              "without --live validate already only reads (the static check); --live adds load"),
          refused(
              DEPLOY,
              Flags.ALL,
              0,
              "MODEL",
              "deploy one model per command: speech-infra deploy MODEL (or --model NAME)"),
          refused(
              DEPLOY,
              Flags.IMAGE_URI,
              1,
              Flags.CONFIG,
              "the image comes from the endpoint --config (aws.image_uri, pinned by digest)"),
          refused(
              DEPLOY,
              Flags.HF_TOKEN_SECRET,
              1,
              Flags.CONFIG,
              "weights come from the --config's aws.model_repository at a pinned revision; no token"),
          refused(
              DESTROY,
              Flags.ALL,
              0,
              "MODEL",
              "destroy one model per command: speech-infra destroy MODEL (or --model NAME)"));

  /** The table as markdown rows, for {@code cli/README.md}. */
  static String markdown() {
    StringBuilder o = new StringBuilder();
    o.append("| command | published flag | here | note |\n");
    o.append("|---|---|---|---|\n");
    for (Flag f : ALL) {
      String here =
          switch (f.kind()) {
            case SAME -> "same";
            case DIFFERS -> "same name, **other meaning**";
            case ALIAS -> "alias of `" + f.ours() + "`";
            case ALWAYS -> "accepted, always on";
            case REFUSED -> f.ours() == null ? "refused" : "refused: use `" + f.ours() + "`";
          };
      o.append("| `")
          .append(f.command())
          .append("` | `")
          .append(f.published())
          .append("` | ")
          .append(here)
          .append(" | ")
          .append(f.note().replace("|", "\\|"))
          .append(" |\n");
    }
    return o.toString();
  }

  /** {@code --samples is the published tool's flag: use --texts FILE: ...}. */
  static String refusal(Flag f) {
    return f.published() + " is the published tool's flag: " + f.note();
  }
}
