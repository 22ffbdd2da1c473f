package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.platform.PlatformProvider;
import dev.speechscale.platform.Platforms;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * Which platform, and where its local control state lives: the two options {@code tts-bench}'s
 * {@link ChainOptions} and {@code speech-infra}'s {@link InfraOptions} both declare through this
 * one mixin. Option help: {@code flags.properties}.
 */
final class PlatformChoice {
  /** The platform when {@code --platform} is not given. */
  static final String DEFAULT_PLATFORM = "local";

  @Option(names = Flags.PLATFORM, defaultValue = DEFAULT_PLATFORM, paramLabel = "local|aws")
  String platform;

  @Option(names = Flags.STATE_DIR, paramLabel = "DIR")
  @Nullable Path stateDir;

  /** The chosen platform's provider, if it is on the classpath. */
  Optional<PlatformProvider> provider() {
    return Platforms.find(platform);
  }

  /** Why the chosen platform cannot be used: it is not on the classpath. */
  String notFound() {
    return Flags.PLATFORM + " (" + platform + ") must be " + choices();
  }

  /** The platforms on the classpath, the default first: {@code local or aws}. */
  static String choices() {
    List<String> names = new ArrayList<>(Platforms.names());
    if (names.remove(DEFAULT_PLATFORM)) {
      names.addFirst(DEFAULT_PLATFORM);
    }
    return String.join(" or ", names);
  }
}
