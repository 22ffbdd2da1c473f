package dev.speechscale.platform;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * A platform's deployment side for one model, behind {@code speech-infra}: each operation prints
 * its result to the command's output and returns the exit code (0 ok, 1 refusal or failure).
 */
public interface Infra {

  /**
   * Deploys (or replaces) the endpoint from the config and returns when it is in service; scaling
   * is attached only behind a matching plan.
   *
   * @param config the endpoint config file
   * @param plan the plan artifact, or {@code null} for {@code plan-<model>.json} beside the config
   */
  int deploy(Path config, @Nullable Path plan);

  /**
   * Stops everything of the endpoint; does nothing when nothing is deployed.
   *
   * @param config the endpoint config the endpoint was deployed from (platforms that need it)
   * @param includeFoundation also delete the shared resources every endpoint uses
   */
  int destroy(Path config, boolean includeFoundation);

  /** Prints the endpoint: instances, counts, scaling; 1 when something is wrong. */
  default int status() {
    return status(false);
  }

  /**
   * Prints the endpoint as {@link #status()} does, or, with {@code json}, the same facts as one
   * JSON object on one line (field names in docs/speech-infra.md, stable across releases); problems
   * still go to the error stream. 1 when something is wrong.
   */
  int status(boolean json);

  /** True when the platform writes deployment templates offline ({@link #synth}). */
  boolean synthesizes();

  /**
   * Writes the deployment templates without touching the platform.
   *
   * @param config the endpoint config file
   * @param plan the plan artifact, or {@code null} for {@code plan-<model>.json} beside the config
   * @throws PlatformException when the platform has nothing to synthesize
   */
  int synth(Path config, @Nullable Path plan);
}
