package dev.speechscale.cli;

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
          same(QMAX, "--model", "the endpoint is speech-<NAME>"),
          same(QMAX, "--region", "aws region"),
          refused(QMAX, "--variant", 1, null, VARIANT),
          refused(QMAX, "--voice", 1, null, VOICE),
          alias(QMAX, "--concurrency", "--rungs", Conversion.AS_IS),
          alias(QMAX, "--slo-ms", "--slo", Conversion.MILLIS),
          same(QMAX, "--hold", "also takes a bare number of seconds, as published"),
          alias(QMAX, "--measure-window", "--window", Conversion.SECONDS),
          alias(QMAX, "--settle-between-steps", "--settle", Conversion.SECONDS),
          same(QMAX, "--runs", "passes of the ladder"),
          same(QMAX, "--transport", "response-stream, bidi (and http-stream locally)"),
          same(QMAX, "--seed", "text shuffle seed"),
          refused(QMAX, "--max-samples", 1, "--texts", SAMPLES),
          refused(QMAX, "--samples", 1, "--texts", SAMPLES),
          always(QMAX, "--require-frozen", "qmax always freezes scaling and pins capacity to 1"),
          refused(
              QMAX,
              "--no-require-frozen",
              0,
              null,
              "qmax always freezes scaling and pins capacity to 1: Q_max is a per-instance number"),
          always(QMAX, "--require-unbounded-queue", "qmax always refuses a bounded queue"),
          refused(
              QMAX,
              "--no-require-unbounded-queue",
              0,
              null,
              "qmax always refuses a bounded container queue (it would measure MAX_QUEUE_DEPTH);"
                  + " deploy with queue_max_depth 0 to measure"),
          refused(
              QMAX,
              "--pin-to",
              1,
              null,
              "qmax pins capacity to 1: Q_max is one instance's ceiling"),
          always(QMAX, "--cloudwatch", "the server-concurrency join always runs"),
          refused(
              QMAX,
              "--no-cloudwatch",
              0,
              null,
              "the server-concurrency join always runs: without it plan has no units conversion"),
          same(QMAX, "--output", "artifact path"),
          refused(QMAX, "--no-save", 0, "--output", NO_SAVE),
          same(QMAX, "--events", "per-request JSON lines"),
          same(QMAX, "--dry-run", "schedule and total, no endpoint calls"),
          alias(QMAX, "--dry-run-s", "--assume-service-time", Conversion.SECONDS),
          same(TTOTAL, "--model", "the endpoint is speech-<NAME>"),
          same(TTOTAL, "--qmax", "the ladder"),
          same(TTOTAL, "--region", "aws region"),
          refused(TTOTAL, "--variant", 1, null, VARIANT),
          refused(TTOTAL, "--voice", 1, null, VOICE),
          new Flag(
              TTOTAL,
              "--trigger",
              Kind.ALWAYS,
              null,
              Conversion.AS_IS,
              1,
              "force-desired is the only trigger, as published"),
          same(TTOTAL, "--probe-concurrency", "the probe's N"),
          alias(TTOTAL, "--warmup", "--settle", Conversion.SECONDS),
          same(TTOTAL, "--allow-config-mismatch", "warn instead of refusing"),
          alias(TTOTAL, "--max-wait", "--timeout", Conversion.SECONDS),
          new Flag(
              TTOTAL,
              "--settle",
              Kind.DIFFERS,
              "--recovery-window",
              Conversion.AS_IS,
              1,
              "same name, other meaning: here --settle is the probe before the trigger (the"
                  + " published --warmup); the hold past the event is --recovery-window"),
          refused(
              TTOTAL,
              "--poll-interval",
              1,
              null,
              "the polling interval follows the platform's API limits; drop --poll-interval"),
          same(TTOTAL, "--transport", "must match the ladder's"),
          refused(TTOTAL, "--seed", 1, "--texts", "the probe walks --texts in order; drop --seed"),
          refused(TTOTAL, "--max-samples", 1, "--texts", SAMPLES),
          refused(TTOTAL, "--samples", 1, "--texts", SAMPLES),
          same(TTOTAL, "--output", "artifact path"),
          refused(TTOTAL, "--no-save", 0, "--output", NO_SAVE),
          refused(TTOTAL, "--events", 1, null, "ttotal writes no event log; qmax --events does"),
          same(PLAN, "--qmax", "the ladder"),
          same(PLAN, "--ttotal", "the scale-out"),
          same(PLAN, "--peak-rps", "peak load"),
          same(PLAN, "--trough-rps", "trough load"),
          same(PLAN, "--peak-streams", "peak concurrent sessions"),
          same(PLAN, "--trough-streams", "trough concurrent sessions"),
          alias(PLAN, "--max-scaling-per-t-total", "--surge-ratio", Conversion.AS_IS),
          alias(PLAN, "--ttfab-slo-ms", "--slo", Conversion.MILLIS),
          same(PLAN, "--min-floor", "fewest instances"),
          same(PLAN, "--assume-t-total", "also takes a bare number of seconds, as published"),
          same(PLAN, "--allow-config-mismatch", "warn instead of refusing"),
          alias(PLAN, "--ceiling-s", "--ceiling", Conversion.SECONDS),
          same(PLAN, "--output", "plan path"),
          same(DRIFT, "--region", "aws region"),
          same(DRIFT, "--output", "the drift artifact (with --model)"),
          always(DRIFT, "--fail-on-error", "drift always exits 1 on an error"),
          refused(
              DRIFT,
              "--no-fail-on-error",
              0,
              null,
              "drift always exits 1 on an error; read --json instead of the exit code"),
          same(THAW, "--endpoint", "speech-<NAME>, the same as --model NAME"),
          refused(THAW, "--variant", 1, null, VARIANT),
          same(THAW, "--region", "aws region"),
          always(THAW, "--restore-capacity", "--desired N restores capacity on its own"),
          always(THAW, "--no-restore-capacity", "capacity is restored only with --desired N"),
          same(THAW, "--desired", "desired capacity to restore"),
          same(VALIDATE, "--model", "the endpoint is speech-<NAME>"),
          same(VALIDATE, "--plan", "the plan"),
          same(VALIDATE, "--transport", "of the live checks"),
          same(VALIDATE, "--region", "aws region"),
          refused(VALIDATE, "--voice", 1, null, VOICE),
          refused(
              VALIDATE,
              "--surge-ratio",
              1,
              "--plan",
              "the surge ratio is the --plan's (plan --surge-ratio); re-plan to change it"),
          refused(
              VALIDATE,
              "--dry-run",
              0,
              "--live",
              "without --live validate already only reads (the static check); --live adds load"),
          refused(
              DEPLOY,
              "--all",
              0,
              "MODEL",
              "deploy one model per command: speech-infra deploy MODEL (or --model NAME)"),
          refused(
              DEPLOY,
              "--image-uri",
              1,
              "--config",
              "the image comes from the endpoint --config (aws.image_uri, pinned by digest)"),
          refused(
              DEPLOY,
              "--hf-token-secret",
              1,
              "--config",
              "weights come from the --config's aws.model_repository at a pinned revision; no token"),
          refused(
              DESTROY,
              "--all",
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
