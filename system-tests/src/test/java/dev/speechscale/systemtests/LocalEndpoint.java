package dev.speechscale.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * A flite endpoint on the local platform that an end-to-end test drives through the real CLI: its
 * config (one {@code local.500mcpu} instance, at most two, an 8 s SLO, no queue bound, time scale
 * 0.1, plus the test's own {@code local} settings), its state directory, and the steps the tests
 * share, each asserting its exit code. {@link #close} destroys it, whatever the test did.
 */
final class LocalEndpoint implements AutoCloseable {
  private final Path dir;
  private final String model;
  private final String local;

  /**
   * @param dir the test's temporary directory: configs, artifacts and state go there
   * @param model the model; the endpoint is speech-&lt;model&gt;
   * @param local more lines of the {@code local} block, each ending in a newline, or ""
   */
  private LocalEndpoint(Path dir, String model, String local) {
    this.dir = dir;
    this.model = model;
    this.local = local;
  }

  /** Writes the endpoint's config; {@link #deploy} deploys it. */
  static LocalEndpoint configured(Path dir, String model, String local) throws IOException {
    LocalEndpoint e = new LocalEndpoint(dir, model, local);
    Files.writeString(
        e.config(),
        """
        models:
          %s:
            engine: flite
            engine_settings: {segmentation: sentence}
            instance_type: local.500mcpu
            min_instances: 1
            max_instances: 2
            ttfab_slo_ms: 8000
            queue_max_depth: 0
        """
                .formatted(model)
            + e.localBlock());
    return e;
  }

  private String localBlock() {
    return "    local:\n      time_scale: 0.1\n" + local.indent(6);
  }

  Path config() {
    return dir.resolve("endpoints.yaml");
  }

  Path state() {
    return dir.resolve("state");
  }

  /** The config {@link #deployBehind} writes: the plan's values and the same engine and local. */
  Path plannedConfig() {
    return dir.resolve("endpoints-planned.yaml");
  }

  /** {@code --model M --state-dir S --config C}. */
  String[] where() {
    return new String[] {
      "--model", model, "--state-dir", state().toString(), "--config", config().toString()
    };
  }

  /** {@code --model M --state-dir S --config PLANNED --plan P}: the endpoint behind its plan. */
  String[] behind(Path plan) {
    return new String[] {
      "--model",
      model,
      "--state-dir",
      state().toString(),
      "--config",
      plannedConfig().toString(),
      "--plan",
      plan.toString()
    };
  }

  /** {@code tts-bench} with {@code args} and then {@link #where}. */
  Cli ttsBench(String... args) {
    return Cli.ttsBench(concat(args, where()));
  }

  void deploy() {
    Cli deploy = Cli.speechInfra(concat(new String[] {"deploy"}, where()));
    assertThat(deploy.exitCode()).as(deploy.err()).isZero();
  }

  /**
   * {@code qmax} with the ladder's options, into {@link #qmaxFile}. The drift re-check only flags
   * ({@code --drift-rewarm-budget 0s}, what qmax did before issue 37 item 7) unless the ladder sets
   * a budget: with these tests' windows of a few seconds a chance drift beyond tolerance is likely
   * on a loaded machine, and the default 5 min rewarm would be spent on it in every chain test. The
   * rewarm itself is tested in loadgen ({@code LadderRewarmTest}) and chain ({@code
   * QmaxRunDriftTest}).
   */
  Cli qmax(String... ladder) {
    String[] args = concat(new String[] {"qmax"}, ladder);
    if (!java.util.Arrays.asList(ladder).contains("--drift-rewarm-budget")) {
      args = concat(args, "--drift-rewarm-budget", "0s");
    }
    Cli q = ttsBench(concat(args, "--output", qmaxFile().toString()));
    assertThat(q.exitCode()).as(q.err()).isZero();
    return q;
  }

  Path qmaxFile() {
    return dir.resolve("qmax.json");
  }

  /**
   * {@code ttotal} of {@code qmax} with a 1 s settle and a 2 s recovery window, into ttotal.json;
   * the new instance is not probed past recovery unless {@code more} gives {@code
   * --new-instance-for}.
   */
  Path ttotal(Path qmax, String... more) {
    Path ttotal = dir.resolve("ttotal.json");
    String[] args = {
      "ttotal", "--qmax", qmax.toString(), "--settle", "1s", "--recovery-window", "2s"
    };
    if (!java.util.Arrays.asList(more).contains("--new-instance-for")) {
      args = concat(args, "--new-instance-for", "0s");
    }
    Cli t = ttsBench(concat(concat(args, more), "--output", ttotal.toString()));
    assertThat(t.exitCode()).as(t.err()).isZero();
    return ttotal;
  }

  /** {@code plan} of the two artifacts with the load given, into {@code plan-<model>.json}. */
  Path plan(Path qmax, Path ttotal, String... load) {
    Path plan = dir.resolve("plan-" + model + ".json");
    String[] args = {"plan", "--qmax", qmax.toString(), "--ttotal", ttotal.toString()};
    Cli p = Cli.ttsBench(concat(concat(args, load), "--output", plan.toString()));
    assertThat(p.exitCode()).as(p.out()).isZero();
    return plan;
  }

  /** Writes {@link #plannedConfig} from the plan's config block and deploys it behind the plan. */
  Cli deployBehind(Path plan) throws IOException {
    Files.writeString(
        plannedConfig(),
        "models:\n  "
            + model
            + ":\n    engine: flite\n    engine_settings: {segmentation: sentence}\n"
            + localBlock()
            + ArtifactCodec.readPlan(plan)
                .configBlock()
                .lines()
                .skip(2)
                .map(l -> l + "\n")
                .reduce("", String::concat));
    Cli redeploy = Cli.speechInfra(concat(new String[] {"deploy"}, behind(plan)));
    assertThat(redeploy.exitCode()).as(redeploy.err()).isZero();
    return redeploy;
  }

  @Override
  public void close() {
    Cli.speechInfra("destroy", "--model", model, "--state-dir", state().toString());
  }

  /** How often {@link #await} asks again: a state read (describe, scaling state) is cheap. */
  static final Duration POLL = Duration.ofMillis(100);

  /** How often {@link #awaitDrift} runs drift again: each run is a whole CLI command. */
  static final Duration DRIFT_POLL = Duration.ofMillis(250);

  /**
   * Asks {@code probe} every {@link #POLL} until {@code done} holds of its answer and returns that
   * answer; fails naming {@code what} and the last answer once {@code bound} has passed. For state
   * another process owns (an endpoint's supervisor, a CLI run): there is nothing here to wait on,
   * so it polls, and a poll this short adds at most 0.1 s to a wait.
   */
  static <T> T await(String what, Duration bound, Callable<T> probe, Predicate<? super T> done)
      throws Exception {
    return await(what, bound, POLL, probe, done);
  }

  /** {@code tts-bench args} (a drift) every {@link #DRIFT_POLL} until it is clean (exit 0). */
  static Cli awaitDrift(Duration bound, String... args) throws Exception {
    return await(
        "a clean drift", bound, DRIFT_POLL, () -> Cli.ttsBench(args), c -> c.exitCode() == 0);
  }

  private static <T> T await(
      String what, Duration bound, Duration poll, Callable<T> probe, Predicate<? super T> done)
      throws Exception {
    long deadline = System.nanoTime() + bound.toNanos();
    T last = probe.call();
    while (!done.test(last)) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(
            String.format(
                Locale.ROOT,
                "timed out after %.1f s waiting for %s; last: %s",
                bound.toMillis() / 1000.0,
                what,
                last));
      }
      LockSupport.parkNanos(poll.toNanos());
      last = probe.call();
    }
    return last;
  }

  static String[] concat(String[] a, String... b) {
    String[] out = new String[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
