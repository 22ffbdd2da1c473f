package dev.speechscale.chain;

import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A request's section naming the endpoint: which model, on which platform, deployed from which
 * config, with which local control state.
 *
 * @param model the model; the endpoint is speech-&lt;model&gt;
 * @param platform the platform's name ({@code local}, {@code aws})
 * @param config the endpoint config file
 * @param stateDir the local control state, or {@code null} for the platform's default
 */
public record Target(String model, String platform, Path config, @Nullable Path stateDir) {
  /** The endpoint's name. */
  public String endpoint() {
    return "speech-" + model;
  }

  /** The section's flags. */
  List<String> arguments() {
    return new Args()
        .add(Flags.MODEL, model)
        .add(Flags.PLATFORM, platform)
        .add(Flags.CONFIG, config)
        .optional(Flags.STATE_DIR, stateDir)
        .words();
  }
}
